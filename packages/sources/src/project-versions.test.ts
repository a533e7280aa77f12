import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedVersion, installedVersions } from './project-versions.js';

let root: string;
let project: string;

async function install(dir: string, name: string, manifest: string | object): Promise<void> {
  const folder = path.join(dir, 'node_modules', ...name.split('/'));
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, 'package.json'),
    typeof manifest === 'string' ? manifest : JSON.stringify(manifest),
  );
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'docs-project-versions-'));
  project = path.join(root, 'workspace', 'app');
  await mkdir(project, { recursive: true });
  await install(project, 'zod', { version: '4.6.7' });
  await install(project, '@acme/widgets', { version: '2.0.0' });
  await install(project, 'broken', '{ not json');
  await install(project, 'no-version', { name: 'no-version' });
  // Hoisted to the workspace root: found from the app by walking up, as Node resolves it.
  await install(path.join(root, 'workspace'), 'vitest', { version: '4.1.12' });
  await install(path.join(root, 'workspace'), 'zod', { version: '3.0.0' });
  await install(path.join(root, 'workspace'), '@acme/tools', { version: '1.1.0' });
  // A folder without a package.json here, and the package further up.
  await mkdir(path.join(project, 'node_modules', 'hono'), { recursive: true });
  await install(path.join(root, 'workspace'), 'hono', { version: '4.0.0' });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('installedVersions', () => {
  const names = [
    'zod',
    '@acme/widgets',
    '@acme/tools',
    '@acme/missing',
    'vitest',
    'hono',
    'broken',
    'no-version',
    'missing',
    '../escape',
    'zod',
  ];

  it('finds each package the way Node resolves it from the project, the nearest first', async () => {
    const versions = await installedVersions(project, names);
    expect(Object.fromEntries(versions)).toEqual({
      zod: '4.6.7',
      '@acme/widgets': '2.0.0',
      '@acme/tools': '1.1.0',
      vitest: '4.1.12',
      hono: '4.0.0',
    });
  });

  it('answers as installedVersion does, name by name', async () => {
    const versions = await installedVersions(project, names);
    for (const name of names) expect(versions.get(name), name).toBe(await installedVersion(project, name));
  });

  it('answers nothing outside any project, and for no names', async () => {
    expect((await installedVersions(path.join(root, 'elsewhere'), ['zod'])).size).toBe(0);
    expect((await installedVersions(project, [])).size).toBe(0);
  });
});

describe('a Cargo project', () => {
  it('answers the version its Cargo.lock pins, for a name spelled either way, from a member folder too', async () => {
    const workspace = path.join(root, 'rusty');
    const member = path.join(workspace, 'crates', 'cli');
    await mkdir(member, { recursive: true });
    const registry = 'registry+https://github.com/rust-lang/crates.io-index';
    await writeFile(
      path.join(workspace, 'Cargo.lock'),
      [
        'version = 4',
        '[[package]]\nname = "cli"\nversion = "0.1.0"\ndependencies = ["rand 0.8.5", "serde_json"]',
        `[[package]]\nname = "serde_json"\nversion = "1.0.135"\nsource = "${registry}"`,
        `[[package]]\nname = "rand"\nversion = "0.8.5"\nsource = "${registry}"`,
        `[[package]]\nname = "rand"\nversion = "0.9.0"\nsource = "${registry}"`,
      ].join('\n\n'),
    );
    expect(await installedVersion(member, 'serde_json')).toBe('1.0.135');
    expect(await installedVersion(member, 'serde-json')).toBe('1.0.135');
    // Two versions locked: the one the workspace's own package depends on.
    expect(await installedVersion(workspace, 'rand')).toBe('0.8.5');
    expect(await installedVersion(member, 'cli')).toBeUndefined();
    const versions = await installedVersions(member, ['serde-json', 'rand', 'tokio']);
    expect(versions).toEqual(
      new Map([
        ['serde-json', '1.0.135'],
        ['rand', '0.8.5'],
      ]),
    );
  });
});
