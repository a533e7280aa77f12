import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectDependencies } from './dependencies.js';
import { filterPackages, findProjectLayout } from './workspaces.js';

let dir: string;

async function write(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
}

async function link(target: string, at: string): Promise<void> {
  await mkdir(path.dirname(at), { recursive: true });
  await symlink(target, at);
}

/** An installed package: its package.json and a README. */
function installed(name: string, version: string): Record<string, string | object> {
  return { 'package.json': { name, version }, 'README.md': `# ${name} ${version}\n` };
}

function prefixed(prefix: string, files: Record<string, string | object>): Record<string, string | object> {
  return Object.fromEntries(Object.entries(files).map(([file, content]) => [`${prefix}/${file}`, content]));
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-workspaces-test-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a pnpm workspace (symlinks into node_modules/.pnpm)', () => {
  let root: string;
  beforeAll(async () => {
    root = path.join(dir, 'pnpm');
    const store = (name: string, version: string) => `node_modules/.pnpm/${name}@${version}/node_modules/${name}`;
    await write(root, {
      'package.json': { name: 'mono', private: true, devDependencies: { tool: '^1.0.0' } },
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - 'apps/**'\n  - '!**/fixtures/**'\n",
      'packages/a/package.json': {
        name: '@mono/a',
        version: '1.0.0',
        dependencies: { shared: '^1.0.0', left: '^2.0.0' },
      },
      'packages/b/package.json': {
        name: '@mono/b',
        dependencies: { shared: '^2.0.0', '@mono/a': 'workspace:^', missing: '^1.0.0' },
      },
      'apps/web/package.json': { name: 'web', dependencies: { shared: '^1.0.0' } },
      'apps/web/fixtures/x/package.json': { name: 'fixture', dependencies: { never: '1.0.0' } },
      'packages/no-manifest/README.md': '# not a package\n',
      ...prefixed(store('shared', '1.0.0'), installed('shared', '1.0.0')),
      ...prefixed(store('shared', '2.0.0'), installed('shared', '2.0.0')),
      ...prefixed(store('left', '2.1.0'), installed('left', '2.1.0')),
      ...prefixed(store('tool', '1.5.0'), installed('tool', '1.5.0')),
    });
    await link(path.join(root, store('shared', '1.0.0')), path.join(root, 'packages/a/node_modules/shared'));
    await link(path.join(root, store('left', '2.1.0')), path.join(root, 'packages/a/node_modules/left'));
    await link(path.join(root, store('shared', '2.0.0')), path.join(root, 'packages/b/node_modules/shared'));
    await link(path.join(root, 'packages/a'), path.join(root, 'packages/b/node_modules/@mono/a'));
    await link(path.join(root, store('shared', '1.0.0')), path.join(root, 'apps/web/node_modules/shared'));
    await link(path.join(root, store('tool', '1.5.0')), path.join(root, 'node_modules/tool'));
  });

  it('lists the root and every workspace package the globs name, leaving out exclusions and folders without a manifest', async () => {
    const layout = await findProjectLayout(root);
    expect(layout.workspaceFile).toBe(path.join(root, 'pnpm-workspace.yaml'));
    expect(layout.packages.map((p) => [p.path, p.name])).toEqual([
      ['.', 'mono'],
      ['apps/web', 'web'],
      ['packages/a', '@mono/a'],
      ['packages/b', '@mono/b'],
    ]);
  });

  it("resolves each package's dependencies from its own folder, once per name@version, saying who uses each", async () => {
    const found = await findProjectDependencies(root);
    expect(found.installed.map((d) => [`${d.name}@${d.version}`, d.usedBy])).toEqual([
      ['left@2.1.0', ['packages/a']],
      ['shared@1.0.0', ['apps/web', 'packages/a']],
      ['shared@2.0.0', ['packages/b']],
    ]);
    expect(found.installed.find((d) => d.version === '2.0.0')?.dir).toBe(
      path.join(root, 'node_modules/.pnpm/shared@2.0.0/node_modules/shared'),
    );
    expect(found.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['@mono/a', 'linked from the workspace, not an installed release'],
      ['missing', 'not installed in packages/b (run the install command of your package manager)'],
    ]);
    const withDev = await findProjectDependencies(root, { dev: true });
    expect(withDev.installed.map((d) => `${d.name}@${d.version}`)).toContain('tool@1.5.0');
  });

  it('picks packages with --filter by name or path glob, and refuses a filter that picks nothing', async () => {
    const byName = await findProjectDependencies(root, { filter: ['@mono/*'] });
    expect(byName.packages.map((p) => p.path)).toEqual(['packages/a', 'packages/b']);
    expect(byName.installed.map((d) => `${d.name}@${d.version}`)).toEqual([
      'left@2.1.0',
      'shared@1.0.0',
      'shared@2.0.0',
    ]);
    const byPath = await findProjectDependencies(root, { filter: ['./apps/*'] });
    expect(byPath.installed.map((d) => `${d.name}@${d.version}`)).toEqual(['shared@1.0.0']);
    await expect(findProjectDependencies(root, { filter: ['@nope/*'] })).rejects.toMatchObject({
      name: 'SourceError',
      code: 'invalid-source',
      message: expect.stringContaining('mono, web, @mono/a, @mono/b'),
    });
  });

  it('reads only the root with workspaces: false', async () => {
    const found = await findProjectDependencies(root, { workspaces: false, dev: true });
    expect(found.packages.map((p) => p.path)).toEqual(['.']);
    expect(found.installed.map((d) => d.name)).toEqual(['tool']);
    expect(found.installed[0]?.usedBy).toBeUndefined();
  });
});

describe('an npm workspace (package.json workspaces, hoisted and nested node_modules)', () => {
  let root: string;
  beforeAll(async () => {
    root = path.join(dir, 'npm');
    await write(root, {
      'package.json': { name: 'npm-mono', workspaces: { packages: ['./libs/*'] } },
      'libs/one/package.json': { name: 'one', dependencies: { shared: '^1.0.0' } },
      'libs/two/package.json': { name: 'two', dependencies: { shared: '^2.0.0', one: '*' } },
      ...prefixed('node_modules/shared', installed('shared', '1.0.0')),
      ...prefixed('libs/two/node_modules/shared', installed('shared', '2.0.0')),
    });
    await link(path.join(root, 'libs/one'), path.join(root, 'node_modules/one'));
  });

  it('finds the hoisted version for one package and the nested one for the other', async () => {
    const found = await findProjectDependencies(root);
    expect(found.workspaceFile).toBe(path.join(root, 'package.json'));
    expect(found.installed.map((d) => [`${d.name}@${d.version}`, d.usedBy])).toEqual([
      ['shared@1.0.0', ['libs/one']],
      ['shared@2.0.0', ['libs/two']],
    ]);
    expect(found.skipped.map((s) => s.name)).toEqual(['one']);
  });

  it('takes the array form of workspaces too (yarn, bun)', async () => {
    const arrayRoot = path.join(dir, 'yarn');
    await write(arrayRoot, {
      'package.json': { name: 'y', workspaces: ['pkgs/*'] },
      'pkgs/p/package.json': { name: 'p' },
    });
    const layout = await findProjectLayout(arrayRoot);
    expect(layout.packages.map((p) => p.name)).toEqual(['y', 'p']);
    expect(filterPackages(layout.packages, ['p']).map((p) => p.path)).toEqual(['pkgs/p']);
  });
});
