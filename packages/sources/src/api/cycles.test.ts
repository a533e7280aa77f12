import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageApi } from './index.js';

// Declarations that refer to themselves, laid out as installed packages: each of these sent the walker round forever
// (`Maximum call stack size exceeded`), and the whole library was lost with it.
let dir: string;
const limits = { maxFiles: 1000, maxBytes: 16 * 1024 * 1024 };

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

// Nested class + namespace pairs, each holding the next: `Level0.Level1.Level2…`, every one a symbol of its own.
function nestedLevels(depth: number): string {
  let body = '';
  for (let level = depth - 1; level >= 0; level -= 1) {
    body = `/** Level ${level}. */\nclass Level${level} {\n/** Runs level ${level}. */\nrun${level}(): void;\n}\nnamespace Level${level} {\n${body}}\n`;
  }
  return `export declare ${body.replace(/^\/\*\*.*\*\/\n/, '')}`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-api-cycles-'));
  await write(path.join(dir, 'node_modules'), {
    // The shape of @types/ws on @types/node: a class merged with a namespace that holds an alias of itself, extending
    // an emitter whose static side holds a subclass of the emitter (Node's `EventEmitter.EventEmitterAsyncResource`).
    'sockety/package.json': { name: 'sockety', version: '8.18.0', main: 'index.js' },
    'sockety/README.md': '# sockety\n\nA socket library.\n',
    '@types/sockety/package.json': {
      name: '@types/sockety',
      version: '8.5.14',
      types: 'index.d.ts',
      dependencies: { emitter: '*' },
    },
    '@types/sockety/index.d.ts': `import { EventEmitter } from 'emitter';
/** A socket. */
declare class Sockety extends EventEmitter {
    /** Sends data. */
    send(data: string): void;
}
declare namespace Sockety {
    /** What a server is made with. */
    interface ServerOptions {
        /** The port to listen on. */
        port?: number;
    }
    /** A socket server. */
    class Server extends EventEmitter {
        constructor(options?: ServerOptions);
        /** Stops listening. */
        close(): void;
    }
    const Sockety: typeof SocketyAlias;
    interface Sockety extends SocketyAlias {}
}
declare const SocketyAlias: typeof Sockety;
interface SocketyAlias extends Sockety {}
export = Sockety;
`,
    'emitter/package.json': { name: 'emitter', version: '1.0.0', types: 'index.d.ts' },
    'emitter/index.d.ts': `declare class EventEmitter {
    /** Adds a listener. */
    on(event: string, listener: (...args: unknown[]) => void): this;
}
declare namespace EventEmitter {
    export { EventEmitter };
    /** An emitter that keeps its async context. */
    export class EventEmitterAsyncResource extends EventEmitter {
        /** The async id. */
        readonly asyncId: number;
    }
}
export = EventEmitter;
`,
    // A re-export cycle, and a type that refers to itself.
    'loopy/package.json': { name: 'loopy', version: '1.0.0', types: 'index.d.ts' },
    'loopy/index.d.ts': "export * from './a.js';\n",
    'loopy/a.d.ts': "export * from './b.js';\n/** Does a. */\nexport declare function a(): void;\n",
    'loopy/b.d.ts': `export * from './a.js';
/** A tree. */
export interface Tree {
    /** Its children. */
    children: Tree[];
    /** Its parent. */
    parent?: Tree;
}
/** Trees. */
export declare namespace Tree {
    /** The root. */
    const root: Tree;
}
`,
    // Nested deeper than anything documented is worth: cut, with a warning.
    'nested/package.json': { name: 'nested', version: '1.0.0', types: 'index.d.ts' },
    'nested/index.d.ts': nestedLevels(10),
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const folder = (name: string) => ({ name, dir: path.join(dir, 'node_modules', ...name.split('/')) });

async function headings(name: string, types?: string): Promise<{ headings: string[]; warnings: readonly string[] }> {
  const api = await packageApi(folder(name), types ? folder(types) : undefined, limits);
  const markdown = api.pages.map((page) => page.markdown).join('\n');
  return { headings: markdown.match(/^#{2,3} .*/gm) ?? [], warnings: api.warnings };
}

describe('declarations that refer to themselves', () => {
  it('documents a class merged with a namespace that aliases it, over an emitter holding its own subclass', async () => {
    const found = await headings('sockety', '@types/sockety');
    expect(found.headings).toEqual(
      expect.arrayContaining([
        '## sockety',
        '### sockety.Sockety.send',
        '### sockety.Server.close',
        '### sockety.ServerOptions.port',
        '### sockety.Server.EventEmitterAsyncResource.asyncId',
      ]),
    );
    // The subclass met again inside itself is not walked again.
    expect(found.headings.filter((h) => /EventEmitterAsyncResource\.EventEmitterAsyncResource/.test(h))).toEqual([]);
    expect(found.warnings).toEqual([]);
  });

  it('follows a re-export cycle once and documents a self-referencing type', async () => {
    const found = await headings('loopy');
    expect(found.headings).toEqual(
      expect.arrayContaining(['## a', '## Tree', '### Tree.children', '### Tree.parent', '### Tree.root']),
    );
    expect(new Set(found.headings).size).toBe(found.headings.length);
  });

  it('stops at a depth bound, with a warning, and keeps what is above it', async () => {
    const found = await headings('nested');
    expect(found.headings).toContain('## Level0');
    expect(found.headings).toContain('### Level0.Level1.Level2.Level3.Level4.Level5.run5');
    expect(found.headings.some((h) => h.includes('Level9'))).toBe(false);
    expect(found.warnings).toEqual(['members nested deeper than 6 levels are left out']);
  });
});
