import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectDependencies } from './dependencies.js';
import { stageDependencyDocs } from './dependency-docs.js';
import { parseMetadata } from './python/environment.js';
import { findDocFiles } from './walk.js';

let dir: string;
let project: string;
let temp: string;
const originalTmp = process.env.TMPDIR;

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-deps-test-'));
  temp = path.join(dir, 'tmp');
  await mkdir(temp);
  process.env.TMPDIR = temp;
  // A workspace: the project is packages/app; some dependencies are hoisted to the root's node_modules.
  project = path.join(dir, 'packages', 'app');
  await write(dir, {
    'packages/app/package.json': {
      name: 'app',
      dependencies: {
        alpha: '^1.0.0',
        beta: '^2.0.0',
        'not-installed': '^1.0.0',
        '@acme/shared': 'workspace:^',
        bare: '*',
      },
      optionalDependencies: { '@scope/opt': '^3.0.0' },
      devDependencies: { gamma: '^0.1.0' },
    },
    // alpha: README, docs folder (with a non-doc file), type declarations with JSDoc, one re-exported file.
    'packages/app/node_modules/alpha/package.json': {
      name: 'alpha',
      version: '1.2.3',
      description: 'Alpha renders widgets.',
      types: './dist/index.d.ts',
    },
    'packages/app/node_modules/alpha/README.md': '# Alpha\n\nAlpha renders widgets quickly.\n',
    'packages/app/node_modules/alpha/CHANGELOG.md': '# Changelog\n',
    'packages/app/node_modules/alpha/docs/guide.md': '# Guide\n\nConfigure the renderer.\n',
    'packages/app/node_modules/alpha/docs/data.json': '{}',
    'packages/app/node_modules/alpha/dist/index.d.ts':
      "/** Renders a widget. @param name - which one */\nexport declare function render(name: string): void;\nexport * from './extra.js';\n",
    'packages/app/node_modules/alpha/dist/extra.d.ts': '/** Extra helper. */\nexport declare const extra: number;\n',
    // beta, pnpm style: a symlink into the store folder.
    'node_modules/.pnpm/beta@2.0.0/node_modules/beta/package.json': { name: 'beta', version: '2.0.0' },
    'node_modules/.pnpm/beta@2.0.0/node_modules/beta/readme.markdown': '# Beta\n\nBeta parses.\n',
    'node_modules/@scope/opt/package.json': {
      name: '@scope/opt',
      version: '3.1.0',
      exports: { '.': { import: { types: './index.d.ts' } } },
    },
    'node_modules/@scope/opt/index.d.ts': '/** Optional feature. */\nexport declare function opt(): void;\n',
    'node_modules/bare/package.json': { name: 'bare', version: '0.0.1' },
    'node_modules/bare/index.js': 'module.exports = 1;\n',
    'node_modules/gamma/package.json': { name: 'gamma', version: '0.1.5' },
    'node_modules/gamma/README': 'Gamma\n=====\n\nGamma tests.\n',
    'packages/shared/package.json': { name: '@acme/shared', version: '0.0.0' },
    'packages/shared/README.md': '# Shared\n',
  });
  await symlink(path.join(dir, 'node_modules/.pnpm/beta@2.0.0/node_modules/beta'), path.join(dir, 'node_modules/beta'));
  await mkdir(path.join(project, 'node_modules', '@acme'), { recursive: true });
  await symlink(path.join(dir, 'packages/shared'), path.join(project, 'node_modules/@acme/shared'));
});

afterAll(async () => {
  if (originalTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmp;
  await rm(dir, { recursive: true, force: true });
});

describe('findProjectDependencies', () => {
  it('finds each dependency where Node would, at its installed version, and says why others are left out', async () => {
    const found = await findProjectDependencies(project);
    expect(found.installed.map((d) => [d.name, d.version, d.dev])).toEqual([
      ['@scope/opt', '3.1.0', false],
      ['alpha', '1.2.3', false],
      ['bare', '0.0.1', false],
      ['beta', '2.0.0', false],
    ]);
    expect(found.installed.find((d) => d.name === 'beta')?.dir).toBe(
      path.join(dir, 'node_modules/.pnpm/beta@2.0.0/node_modules/beta'),
    );
    expect(found.installed.find((d) => d.name === 'alpha')?.description).toBe('Alpha renders widgets.');
    expect(found.skipped).toEqual([
      { name: '@acme/shared', version: '0.0.0', reason: 'linked from the workspace, not an installed release' },
      { name: 'not-installed', reason: 'not installed (run the install command of your package manager)' },
    ]);
  });

  it('adds development dependencies with dev', async () => {
    const found = await findProjectDependencies(project, { dev: true });
    expect(found.installed.filter((d) => d.dev).map((d) => `${d.name}@${d.version}`)).toEqual(['gamma@0.1.5']);
  });

  it('refuses a folder with neither package.json nor virtualenv', async () => {
    await expect(findProjectDependencies(temp)).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('stageDependencyDocs', () => {
  it('gathers the README, the docs folder and an API page from the documented type declarations', async () => {
    const { installed } = await findProjectDependencies(project);
    const alpha = installed.find((d) => d.name === 'alpha');
    if (!alpha) throw new Error('alpha not found');
    const staged = await stageDependencyDocs(alpha);
    if (!staged.ok) throw new Error(staged.error);
    try {
      expect(staged.value).toMatchObject({ name: 'alpha', version: '1.2.3', source: 'npm:alpha@1.2.3' });
      expect((await findDocFiles(staged.value.root)).map((f) => f.relativePath)).toEqual([
        'README.md',
        'api/index.md',
        'docs/guide.md',
      ]);
      const api = await readFile(path.join(staged.value.root, 'api/index.md'), 'utf8');
      expect(api).toContain('# alpha API');
      expect(api).toContain("## render\n\n`import { render } from 'alpha'` · function\n\nRenders a widget.");
      expect(api).toContain("## extra\n\n`import { extra } from 'alpha'` · variable\n\nExtra helper.");
    } finally {
      await staged.value.dispose();
    }
    expect(await readdir(temp)).toEqual([]);
  });

  it('takes readme files of any common name, and types from the exports map', async () => {
    const { installed } = await findProjectDependencies(project, { dev: true });
    const stagedFiles = async (name: string) => {
      const dependency = installed.find((d) => d.name === name);
      if (!dependency) throw new Error(`${name} not found`);
      const staged = await stageDependencyDocs(dependency);
      if (!staged.ok) return staged.error;
      try {
        return (await findDocFiles(staged.value.root)).map((f) => f.relativePath);
      } finally {
        await staged.value.dispose();
      }
    };
    expect(await stagedFiles('beta')).toEqual(['readme.markdown']);
    expect(await stagedFiles('gamma')).toEqual(['README.md']);
    expect(await stagedFiles('@scope/opt')).toEqual(['api/index.md']);
    expect(await stagedFiles('bare')).toBe('no README, docs folder or type declarations');
    expect(await readdir(temp)).toEqual([]);
  });
});

describe('Python virtualenvs', () => {
  it('with all, lists every installed distribution with its METADATA long description, leaving installer tooling out', async () => {
    const py = path.join(dir, 'py');
    const site = path.join(py, '.venv', 'lib', 'python3.12', 'site-packages');
    await write(py, { '.venv/pyvenv.cfg': 'home = /usr/bin\n' });
    await write(site, {
      'requests-2.32.3.dist-info/METADATA':
        'Metadata-Version: 2.1\nName: Requests\nVersion: 2.32.3\nSummary: Python HTTP for Humans.\nDescription-Content-Type: text/markdown\n\n# Requests\n\n[![Downloads](https://static.pepy.tech/badge/requests/month)](https://pepy.tech/project/requests) [![Version](https://img.shields.io/pypi/v/requests.svg)](https://pypi.org/project/requests/)\n\nRequests is an elegant&nbsp;HTTP library.\n',
      'Old_Lib-1.0.dist-info/METADATA':
        'Metadata-Version: 1.1\nName: Old_Lib\nVersion: 1.0\nDescription: Old Lib\n        =======\n        \n        Legacy text.\n',
      'pip-24.0.dist-info/METADATA': 'Name: pip\nVersion: 24.0\n\nThe installer.\n',
    });
    // Without a manifest, nothing says which distributions the project uses: none is built, and the reason says so.
    const undeclared = await findProjectDependencies(py);
    expect(undeclared.installed).toEqual([]);
    expect(undeclared.skipped.map((s) => s.reason)).toEqual([
      expect.stringContaining('--all builds every installed one'),
    ]);
    const found = await findProjectDependencies(py, { all: true });
    expect(found.installed.map((d) => [d.name, d.version, d.ecosystem])).toEqual([
      ['old-lib', '1.0', 'python'],
      ['requests', '2.32.3', 'python'],
    ]);
    const requests = found.installed[1];
    if (!requests) throw new Error('requests not found');
    expect(requests.description).toBe('Python HTTP for Humans.');
    const staged = await stageDependencyDocs(requests);
    if (!staged.ok) throw new Error(staged.error);
    try {
      // Cleaned as an npm README is: the badge row gone, the entity decoded.
      const readme = await readFile(path.join(staged.value.root, 'README.md'), 'utf8');
      expect(readme).toContain('Requests is an elegant HTTP library.');
      expect(readme).not.toContain('shields.io');
      expect(staged.value.source).toBe('pypi:requests@2.32.3');
    } finally {
      await staged.value.dispose();
    }
  });

  it('reads the long description from the body or from the old Description header', () => {
    expect(parseMetadata('Name: a\nVersion: 1\n\nBody text\n').description).toBe('Body text');
    expect(parseMetadata('Name: a\nDescription: Title\n        =====\n        \n        More.\n').description).toBe(
      'Title\n=====\n\nMore.',
    );
  });
});
