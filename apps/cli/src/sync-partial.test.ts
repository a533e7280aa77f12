import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docs sync --dev` in a project whose type declarations refer to themselves (the shape of @types/ws over Node's
// EventEmitter, which lost ws whole to `Maximum call stack size exceeded`), and one whose API is cut: the library is
// built, and what was left out is said in text and in --json. The built command, a project laid out here.
const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
let dir: string;
let project: string;

async function write(at: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(at, file)), { recursive: true });
    await writeFile(path.join(at, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

function nestedLevels(depth: number): string {
  let body = '';
  for (let level = depth - 1; level >= 0; level -= 1) {
    body = `/** Level ${level}. */\nclass Level${level} {\n/** Runs level ${level}. */\nrun${level}(): void;\n}\nnamespace Level${level} {\n${body}}\n`;
  }
  return `export declare ${body.replace(/^\/\*\*.*\*\/\n/, '')}`;
}

function docs(...args: string[]) {
  const home = path.join(dir, 'home');
  const run = spawnSync(process.execPath, [bin, ...args, '--home', home], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), TMPDIR: dir },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-sync-partial-'));
  project = path.join(dir, 'project');
  await write(project, {
    'package.json': {
      name: 'app',
      dependencies: { sockety: '8.18.0', nested: '1.0.0' },
      devDependencies: { '@types/sockety': '8.5.14' },
    },
    'node_modules/sockety/package.json': { name: 'sockety', version: '8.18.0', main: 'index.js' },
    'node_modules/sockety/README.md': `# sockety\n\n${'A socket library for servers and clients, with enough words. '.repeat(6)}\n`,
    'node_modules/@types/sockety/package.json': {
      name: '@types/sockety',
      version: '8.5.14',
      types: 'index.d.ts',
      dependencies: { emitter: '*' },
    },
    'node_modules/@types/sockety/index.d.ts': `import { EventEmitter } from 'emitter';
/** A socket. */
declare class Sockety extends EventEmitter {
    /** Sends data to the other end of the socket. */
    send(data: string): void;
}
declare namespace Sockety {
    /** A socket server. */
    class Server extends EventEmitter {
        /** Stops listening for connections. */
        close(): void;
    }
    const Sockety: typeof SocketyAlias;
    interface Sockety extends SocketyAlias {}
}
declare const SocketyAlias: typeof Sockety;
interface SocketyAlias extends Sockety {}
export = Sockety;
`,
    'node_modules/emitter/package.json': { name: 'emitter', version: '1.0.0', types: 'index.d.ts' },
    'node_modules/emitter/index.d.ts': `declare class EventEmitter {
    /** Adds a listener. */
    on(event: string, listener: (...args: unknown[]) => void): this;
}
declare namespace EventEmitter {
    export { EventEmitter };
    /** An emitter that keeps its async context. */
    export class EventEmitterAsyncResource extends EventEmitter {}
}
export = EventEmitter;
`,
    'node_modules/nested/package.json': { name: 'nested', version: '1.0.0', types: 'index.d.ts' },
    'node_modules/nested/index.d.ts': nestedLevels(10),
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs sync, a part of a library at a time', () => {
  it('builds a library whose declarations refer to themselves with its API, and says what a build left out', () => {
    const json = docs('sync', '--dev', '--json');
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      built: { library: string; documents: number; warnings?: string[] }[];
      failed: unknown[];
    };
    expect(report.failed).toEqual([]);
    const sockety = report.built.find((b) => b.library === 'sockety@8.18.0');
    // The README and the API pages from @types/sockety.
    expect(sockety?.documents).toBeGreaterThan(1);
    expect(sockety?.warnings).toBeUndefined();
    const nested = report.built.find((b) => b.library === 'nested@1.0.0');
    expect(nested?.warnings).toEqual(['members nested deeper than 6 levels are left out']);

    const search = docs('search', 'sockety', 'stops listening for connections', '--json');
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('Server.close');

    const text = docs('sync', '--dev', '--rebuild');
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('docs: warning: nested@1.0.0: members nested deeper than 6 levels are left out');
    expect(text.stdout).toMatch(/2 built, 1 skipped, 0 failed/);
  });
});
