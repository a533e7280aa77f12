import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectDependencies } from '../dependencies.js';
import { stageDependencyDocs } from '../dependency-docs.js';
import { packageApi } from './index.js';

// One small installed package per layout the API pages must read: an exports map with subpaths, types beside `main`,
// an `@types/…` package with a type package of its own, a dual v3/v4 layout, a re-export from a dependency
// (monorepo packages), `typesVersions` alone, and a package whose declarations reach outside it.
let dir: string;
let project: string;
const limits = { maxFiles: 1000, maxBytes: 16 * 1024 * 1024 };

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-api-test-'));
  project = path.join(dir, 'project');
  await write(project, {
    'package.json': {
      name: 'app',
      dependencies: { webby: '1', kyso: '1', expressive: '5', dual: '3', runner: '2', legacy: '1', escape: '1' },
      devDependencies: { '@types/expressive': '5' },
    },
    // An exports map with subpaths, each with a `types` condition; `export *`, `export { } from` and import + export.
    'node_modules/webby/package.json': {
      name: 'webby',
      version: '4.6.0',
      exports: {
        '.': { types: './dist/types/index.d.ts', import: './dist/index.js' },
        './logger': { types: './dist/types/logger/index.d.ts', import: './dist/logger/index.js' },
        './utils/*': { types: './dist/types/utils/*.d.ts', import: './dist/utils/*.js' },
        './package.json': './package.json',
      },
    },
    'node_modules/webby/dist/types/index.d.ts':
      "export * from './app.js';\nexport { helper as assist } from './helper.js';\nimport { Context } from './context.js';\nexport { Context };\n",
    'node_modules/webby/dist/types/app.d.ts': `/** The application. */
export declare class App {
    /** Creates an app. */
    constructor(options?: { strict: boolean });
    /** Adds a route. */
    get(path: string, handler: () => void): this;
    /** Adds a route for every method. */
    all(path: string): this;
    all(path: string, handler: () => void): this;
    /** @internal */
    secret(): void;
    private hidden;
    protected guarded(): void;
    _private: number;
    '~standard': { version: 1 };
}
/**
 * Old name of {@link App}.
 * @deprecated Use {@link App} instead.
 */
export declare const Webby: typeof App;
`,
    'node_modules/webby/dist/types/helper.d.ts': '/** Helps. */\nexport declare function helper(): void;\n',
    'node_modules/webby/dist/types/context.d.ts':
      '/** A request context. */\nexport interface Context {\n    /** Sends JSON. */\n    json(value: unknown): Response;\n}\ninterface Response {}\n',
    'node_modules/webby/dist/types/logger/index.d.ts': `/**
 * Logger middleware.
 * @param prefix - what each line starts with
 * @returns the middleware
 * @example
 * app.use(logger('>'))
 */
export declare const logger: (prefix?: string) => () => void;
`,
    // No types field: declarations beside the JS files the exports map names.
    'node_modules/kyso/package.json': {
      name: 'kyso',
      version: '0.27.6',
      main: 'dist/cjs/index.js',
      exports: { '.': { import: './dist/esm/index.js', require: './dist/cjs/index.js' } },
    },
    'node_modules/kyso/dist/esm/index.js': 'export {};\n',
    'node_modules/kyso/dist/esm/index.d.ts': "export * from './kysely.js';\n",
    'node_modules/kyso/dist/esm/kysely.d.ts': `/** The database. */
export declare class Kysely<DB> {
    /** Runs the callback in a transaction. */
    transaction(): TransactionBuilder;
    /** Releases the connections. */
    destroy(): Promise<void>;
    /** A copy with a plugin. */
    withPlugin(plugin: string): Kysely<DB>;
    /** The schema module. */
    get schema(): string;
}
/** A database inside a transaction. */
export declare class Transaction<DB> extends Kysely<DB> {
    /** Runs the callback in a transaction. */
    transaction(): TransactionBuilder;
    /** Throws: a transaction is destroyed by committing or rolling back. */
    destroy(): Promise<void>;
    /** @override */
    withPlugin(plugin: string): Transaction<DB>;
    /** Whether this is a transaction. */
    get isTransaction(): true;
}
export interface TransactionBuilder {}
/** Options of every builder. */
export interface BuilderOptions {
    /** The dialect. */
    dialect: string;
}
/** Options of a transaction builder. */
export interface TransactionOptions extends BuilderOptions {
    /** The isolation level. */
    isolation: string;
}
`,
    // A runtime package without types, typed by @types/expressive, which extends a type package of its own.
    'node_modules/expressive/package.json': { name: 'expressive', version: '5.1.0', main: 'index.js' },
    'node_modules/expressive/index.js': 'module.exports = () => {};\n',
    'node_modules/expressive/README.md': '# Expressive\n\nFast web framework.\n',
    'node_modules/@types/expressive/package.json': {
      name: '@types/expressive',
      version: '5.0.3',
      types: 'index.d.ts',
      dependencies: { '@types/expressive-core': '*' },
    },
    'node_modules/@types/expressive/index.d.ts': `import * as core from "expressive-core";
/** Creates an application. */
declare function e(): core.Express;
declare namespace e {
    /** Parses JSON bodies. */
    var json: () => void;
    interface Response extends core.Response {}
}
export = e;
`,
    'node_modules/@types/expressive-core/package.json': {
      name: '@types/expressive-core',
      version: '5.0.0',
      types: 'index.d.ts',
    },
    'node_modules/@types/expressive-core/index.d.ts': `export interface Express {}
export interface Response {
    /** Set cookie \`name\` to \`val\`. */
    cookie(name: string, val: string): this;
}
`,
    // The same class name at the root (v3) and at ./v4.
    'node_modules/dual/package.json': {
      name: 'dual',
      version: '3.25.76',
      types: './index.d.cts',
      exports: {
        '.': { types: './index.d.cts', require: './index.cjs' },
        './v4': { types: './v4/index.d.cts', require: './v4/index.cjs' },
      },
    },
    // Its docs folder shows `dual/v4` imported; its README only the root.
    'node_modules/dual/README.md':
      "# Dual\n\n```ts\nimport { z } from 'dual'\n```\n\nMake a schema for text:\n\n```ts\nconst s = z.string()\n```\n",
    'node_modules/dual/docs/v4.md': "# Version 4\n\n```ts\nimport { z } from 'dual/v4'\n```\n",
    'node_modules/dual/index.d.cts':
      'import * as z from "./v3/external.cjs";\nexport * from "./v3/external.cjs";\nexport { z };\nexport default z;\n',
    'node_modules/dual/v3/external.d.cts':
      'export declare class ZodString {\n    email(message?: string): ZodString;\n}\nexport declare function string(): ZodString;\nexport type TypeOf<T> = T;\nexport type { TypeOf as infer };\n',
    'node_modules/dual/v4/index.d.cts':
      'export declare class ZodString {\n    /** @deprecated Use `z.email()` instead. */\n    email(params?: string): this;\n}\n/** Validates an email address. */\nexport declare function email(): ZodString;\n',
    // The API re-exported from a dependency, as a monorepo's packages do.
    'node_modules/runner/package.json': {
      name: 'runner',
      version: '2.1.9',
      types: './dist/index.d.ts',
      dependencies: { '@runner/spy': '2.1.9' },
    },
    'node_modules/runner/dist/index.d.ts': "export { fn } from '@runner/spy';\n",
    'node_modules/@runner/spy/package.json': { name: '@runner/spy', version: '2.1.9', types: 'index.d.ts' },
    'node_modules/@runner/spy/index.d.ts':
      '/** Creates a mock function. */\nexport declare function fn(): () => void;\n',
    // typesVersions without an exports map.
    'node_modules/legacy/package.json': {
      name: 'legacy',
      version: '1.0.0',
      typesVersions: { '*': { extra: ['./types/extra.d.ts'] } },
      types: './types/index.d.ts',
    },
    'node_modules/legacy/types/index.d.ts': '/** The main thing. */\nexport declare function main(): void;\n',
    'node_modules/legacy/types/extra.d.ts': '/** The extra thing. */\nexport declare function extra(): void;\n',
    // Declarations that reach outside the package: a reference path and a symlink.
    // Its dependencies name a folder outside node_modules, which must not become readable.
    'node_modules/escape/package.json': {
      name: 'escape',
      version: '1.0.0',
      types: 'index.d.ts',
      dependencies: { '../../../../elsewhere': '*' },
    },
    'node_modules/escape/index.d.ts':
      '/// <reference path="../../../outside.d.ts" />\nexport * from "./linked.js";\n/** Inside. */\nexport declare function inside(): void;\n',
  });
  await write(dir, { 'outside.d.ts': '/** Outside. */\ndeclare function outside(): void;\n' });
  await write(dir, {
    'elsewhere/linked.d.ts': '/** Linked from outside. */\nexport declare function linked(): void;\n',
    'elsewhere/package.json': { name: 'elsewhere', version: '1.0.0' },
  });
  await symlink(path.join(dir, 'elsewhere/linked.d.ts'), path.join(project, 'node_modules/escape/linked.d.ts'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const folder = (name: string) => ({ name, dir: path.join(project, 'node_modules', ...name.split('/')) });

// What each package's README shows a user importing: the entry points whose pages are not set apart.
const readmes: Record<string, string> = {
  webby: "import { logger } from 'webby/logger'",
  dual: 'Zod 4 is at `dual/v4`.',
  legacy: 'const { extra } = require("legacy/extra")',
};

async function pages(name: string, types?: string, docsText = readmes[name] ?? '') {
  const api = await packageApi(folder(name), types ? folder(types) : undefined, limits, [docsText]);
  return Object.fromEntries(api.pages.map((page) => [page.file, page.markdown]));
}

/** Every page of a package, one after another. */
async function allPages(name: string): Promise<string> {
  return Object.values(await pages(name)).join('\n');
}

describe('packageApi', () => {
  it('documents each entry point of an exports map on a page of its own, with how to import each export', async () => {
    const found = await pages('webby');
    // A class or interface with members on a page of its own; an entry point's other exports on its index page.
    expect(Object.keys(found)).toEqual(['api/App.md', 'api/index.md', 'api/Context.md', 'api/logger/index.md']);
    const root = Object.values(found).slice(0, 3).join('\n');
    expect(found['api/App.md']).toMatch(/^# webby API\n\n## App\n/);
    expect(found['api/index.md']).toMatch(/^# webby API\n\n## Webby\n[\s\S]*\n## assist\n/);
    expect(root).toContain("## App\n\n`import { App } from 'webby'` · class\n\nThe application.");
    // Re-exported under another name, and imported then exported.
    expect(root).toContain("## assist\n\n`import { assist } from 'webby'` · function\n\nHelps.");
    expect(root).toContain("## Context\n\n`import type { Context } from 'webby'` · interface");
    expect(root).toContain(
      "### Context.json\n\nMethod of `Context` · `import type { Context } from 'webby'`\n\nSends JSON.",
    );
    const logger = found['api/logger/index.md'] ?? '';
    expect(logger).toMatch(/^# webby\/logger API\n/);
    expect(logger).toContain("## logger\n\n`import { logger } from 'webby/logger'` · variable\n\nLogger middleware.");
    expect(logger).toContain('- `prefix`: what each line starts with');
    expect(logger).toContain('Returns: the middleware');
    expect(logger).toContain("Example:\n\n```ts\napp.use(logger('>'))\n```");
  });

  it('keeps members under their owner, overloads together, and leaves out what is private or internal', async () => {
    const root = await allPages('webby');
    const headings = root.match(/^#{2,3} .*/gm);
    expect(headings).toEqual([
      '## App',
      '### App.constructor',
      '### App.get',
      '### App.all',
      '## Webby',
      '## assist',
      '## Context',
      '### Context.json',
      '## logger',
    ]);
    expect(root).toContain('```ts\nall(path: string): this;\nall(path: string, handler: () => void): this;\n```');
    expect(root).toContain('Deprecated: Use `App` instead.');
  });

  it('sets apart the pages of an entry point the docs never import, as one for tools and integrations', async () => {
    const found = await pages('webby', undefined, "import { App } from 'webby'\n\nSee webby/logger for logging.");
    expect(Object.keys(found)).toEqual([
      'api/App.md',
      'api/index.md',
      'api/Context.md',
      'api/other-entry-points/logger/index.md',
    ]);
    expect(found['api/other-entry-points/logger/index.md']).toMatch(/^# webby\/logger API\n/);
    // The root is the entry a user imports, whatever the docs say.
    expect(Object.keys(await pages('dual', undefined, ''))).toEqual([
      'api/index.md',
      'api/ZodString.md',
      'api/other-entry-points/v4/ZodString.md',
      'api/other-entry-points/v4/index.md',
    ]);
  });

  it('reads the declarations beside the JS file when the package names none', async () => {
    const root = await allPages('kyso');
    expect(root).toContain('### Kysely.transaction\n\nMethod of `Kysely`');
    expect(root).toContain('Runs the callback in a transaction.');
  });

  it('documents a member once, where it is declared: a subclass links to what it inherits or repeats unchanged', async () => {
    const found = await pages('kyso');
    const subclass = found['api/Transaction.md'] ?? '';
    expect(subclass.match(/^#{2,3} .*/gm)).toEqual([
      '## Transaction',
      '### Transaction.destroy',
      '### Transaction.isTransaction',
    ]);
    // `transaction` repeats its base's comment; `withPlugin` its signature but for the class's own name; `schema` is
    // not re-declared at all. `destroy` says something of its own.
    expect(subclass).toContain('Inherits 3 members from [`Kysely`](Kysely.md), documented there.');
    expect(subclass).toContain('Throws: a transaction is destroyed');
    expect(found['api/Kysely.md']).toContain('### Kysely.transaction\n\nMethod of `Kysely`');
    expect(found['api/Kysely.md']).toContain('### Kysely.withPlugin');
    // An interface extending an exported one.
    const options = found['api/TransactionOptions.md'] ?? '';
    expect(options).toContain('### TransactionOptions.isolation');
    expect(options).not.toContain('### TransactionOptions.dialect');
    expect(options).toContain('Inherits one member from [`BuilderOptions`](BuilderOptions.md), documented there.');
  });

  it('documents a package from its @types package, following the type package that declares the members', async () => {
    const api = await packageApi(folder('expressive'), folder('@types/expressive'), limits);
    expect(api.fromTypes).toBe(true);
    const root = api.pages.map((page) => page.markdown).join('\n');
    expect(api.pages.map((p) => p.file)).toEqual(['api/index.md', 'api/expressive.Response.md']);
    expect(root).toMatch(/^# expressive API\n/);
    expect(root).toContain(
      "## expressive\n\n`import expressive from 'expressive'` · function\n\nCreates an application.",
    );
    expect(root).toContain('### expressive.json');
    expect(root).toContain('### expressive.Response.cookie');
    expect(root).toContain('Set cookie `name` to `val`.');
  });

  it('keeps a dual layout apart: the root and ./v4 each document their own class under their own import path', async () => {
    const found = await pages('dual');
    expect(Object.keys(found)).toEqual(['api/index.md', 'api/ZodString.md', 'api/v4/ZodString.md', 'api/v4/index.md']);
    expect(found['api/ZodString.md']).toContain(
      "### ZodString.email\n\nMethod of `ZodString` · `import { ZodString } from 'dual'`",
    );
    expect(found['api/ZodString.md']).not.toContain('Deprecated');
    expect(found['api/index.md']).toContain("## z\n\n`import { z } from 'dual'` · namespace");
    // One section for a type exported under two names, saying both.
    expect(found['api/index.md']).toContain(
      "## TypeOf\n\n`import type { TypeOf } from 'dual'` · type · also exported as `infer`",
    );
    expect(found['api/index.md']).not.toContain('## infer');
    expect(found['api/v4/ZodString.md']).toMatch(/^# dual\/v4 API\n/);
    expect(found['api/v4/ZodString.md']).toContain(
      "### ZodString.email\n\nMethod of `ZodString` · `import { ZodString } from 'dual/v4'`\n\nDeprecated: Use `z.email()` instead.",
    );
    expect(found['api/v4/index.md']).toContain("## email\n\n`import { email } from 'dual/v4'` · function");
  });

  it('follows a re-export into a dependency, and typesVersions where there is no exports map', async () => {
    expect((await pages('runner'))['api/index.md']).toContain(
      "## fn\n\n`import { fn } from 'runner'` · function\n\nCreates a mock function.",
    );
    const legacy = await pages('legacy');
    expect(Object.keys(legacy)).toEqual(['api/index.md', 'api/extra/index.md']);
    expect(legacy['api/extra/index.md']).toContain("## extra\n\n`import { extra } from 'legacy/extra'`");
  });

  it('reads nothing outside the package, through a reference path, a symlink or a dependency named as a path', async () => {
    const root = await allPages('escape');
    expect(root).toContain('## inside');
    expect(root).not.toContain('outside');
    expect(root).not.toContain('linked');
  });

  it('stops at the limits with a warning', async () => {
    const api = await packageApi(folder('webby'), undefined, { maxFiles: 2, maxBytes: limits.maxBytes });
    expect(api.warnings).toEqual(['the API page stops at 2 declaration files or 16777216 bytes']);
  });
});

describe('the entry points a package shows', () => {
  it('reads which subpaths the README and docs folder import, and what their examples do, when staging', async () => {
    const found = await findProjectDependencies(project, { dev: true });
    const dual = found.installed.find((d) => d.name === 'dual');
    if (!dual) throw new Error('dual not found');
    const staged = await stageDependencyDocs(dual);
    if (!staged.ok) throw new Error(staged.error);
    try {
      expect(await readFile(path.join(staged.value.root, 'api/v4/ZodString.md'), 'utf8')).toMatch(/^# dual\/v4 API/);
      // The README's paragraph before an example calling `string()` lends its words to that API's section.
      expect(await readFile(path.join(staged.value.root, 'api/index.md'), 'utf8')).toContain(
        "## string\n\n`import { string } from 'dual'` · function\n\nIn the docs: Make a schema for text:",
      );
    } finally {
      await staged.value.dispose();
    }
  });
});

describe('@types joined to their package', () => {
  it('lists @types/x as the types of x, not a library of its own, and records it in the provenance', async () => {
    const found = await findProjectDependencies(project, { dev: true });
    expect(found.installed.map((d) => d.name)).not.toContain('@types/expressive');
    const expressive = found.installed.find((d) => d.name === 'expressive');
    expect(expressive?.types).toMatchObject({ name: '@types/expressive', version: '5.0.3' });
    expect(found.skipped).toContainEqual({
      name: '@types/expressive',
      version: '5.0.3',
      reason: 'its types document expressive@5.1.0',
    });
    if (!expressive) throw new Error('expressive not found');
    const staged = await stageDependencyDocs(expressive);
    if (!staged.ok) throw new Error(staged.error);
    try {
      expect(staged.value.source).toBe('npm:expressive@5.1.0, types from npm:@types/expressive@5.0.3');
      expect(await readFile(path.join(staged.value.root, 'api/expressive.Response.md'), 'utf8')).toContain(
        'expressive.Response.cookie',
      );
    } finally {
      await staged.value.dispose();
    }
  });
});
