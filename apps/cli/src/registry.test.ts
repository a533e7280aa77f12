import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_FORMAT_VERSION } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type TestRegistry } from '../../../scripts/verdaccio.mjs';
import { runDocs } from './__tests__/registry-cli.js';
import { bin, run } from './__tests__/run-command.js';

// docs publish, docs install and docs sync --scope as a user runs them: the built command in
// a project whose .npmrc points @acme at a real registry (verdaccio, started here) with a token.

const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let registry: TestRegistry;
let dir: string;

/** Runs docs in the registry's project folder (its .npmrc applies) on the store `home`. */
const docs = (home: string, ...args: string[]) => runDocs(registry, home, args);

beforeAll(async () => {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run the build first (pnpm build)`);
  registry = await startRegistry();
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-registry-'));
  // The project's .npmrc names the registry: approved once, as a user who trusts it would.
  const approved = await docs(path.join(dir, 'publisher'), 'config', '--approve');
  expect(approved.stdout, approved.stderr).toMatch(/Approved .*\.npmrc: its @acme:registry=http/);
  const added = await docs(path.join(dir, 'publisher'), 'add', path.join(fixtures, 'alpha@1.0.0'));
  expect(added.code, added.stderr).toBe(0);
});
afterAll(async () => {
  await registry?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('docs publish and docs install', () => {
  it('publishes an installed library, installs it into an empty store by range, and searches it', async () => {
    const publisher = path.join(dir, 'publisher');
    const published = await docs(publisher, 'publish', 'alpha', '--scope', '@acme');
    expect(published.stderr).toBe('');
    expect(published.stdout).toMatch(
      /^Published @acme\/docs-alpha@1\.0\.0 \(tag latest\) to http:\/\/127\.0\.0\.1:\d+\/: alpha@1\.0\.0, \d+ sections/,
    );

    const team = path.join(dir, 'team');
    const installed = await docs(team, 'install', 'alpha@^1', '--scope', '@acme');
    expect(installed.stderr).toBe('');
    expect(installed.stdout).toMatch(/^Installed alpha@1\.0\.0 from @acme\/docs-alpha@1\.0\.0: \d+ sections/);
    const answer = JSON.parse((await docs(team, 'get', 'alpha', 'fake timers', '--json')).stdout);
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
  });

  it('refuses a version not published with the published ones listed, exit code 2, and installs the rest', async () => {
    const team = path.join(dir, 'team-2');
    const result = await docs(team, 'install', '@acme/docs-alpha@9', 'alpha@1', '--scope', '@acme');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /@acme\/docs-alpha@9 refused: @acme\/docs-alpha has no version matching "9" on .*Published: 1\.0\.0/,
    );
    expect(result.stderr).toMatch(/1 of 2 not installed/);
    expect(result.stdout).toMatch(/Installed alpha@1\.0\.0/);
    const json = await docs(path.join(dir, 'team-4'), 'install', '@acme/docs-alpha@9', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/Published: 1\.0\.0/),
    });
  });

  it('says which scope when a bare library name is given without one', async () => {
    const result = await docs(path.join(dir, 'team-3'), 'install', 'alpha');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--scope @acme, or the package's full name \(@acme\/docs-alpha\)/);
  });
});

describe('docs sync --scope', () => {
  it('installs the published doc package of one dependency and builds the other, and says which came from where', async () => {
    // A project with two installed dependencies: alpha@1.0.0 is published on the registry, gizmo is not.
    const project = registry.project;
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'project', private: true, dependencies: { alpha: '^1.0.0', gizmo: '^0.3.0' } }),
    );
    for (const [name, version] of [
      ['alpha', '1.0.0'],
      ['gizmo', '0.3.1'],
    ] as const) {
      const folder = path.join(project, 'node_modules', name);
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, 'package.json'),
        JSON.stringify({ name, version, description: `${name} library` }),
      );
      await writeFile(
        path.join(folder, 'README.md'),
        `# ${name}\n\n## Usage\n\nCall ${name}.start() to begin; it reads options from ${name}.config.js.\n`,
      );
    }
    const home = path.join(dir, 'synced');
    const result = await docs(home, 'sync', project, '--scope', '@acme', '--no-types');
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/Installed alpha@1\.0\.0 from @acme\/docs-alpha@1\.0\.0/);
    expect(result.stdout).toMatch(/Built gizmo@0\.3\.1:/);
    expect(result.stdout).toMatch(/Synced .*: 1 installed from @acme, 1 built, 0 skipped, 0 failed/);
    // The registry's package is the publisher's build (the fixture's guide), not one made from the README.
    const answer = JSON.parse((await docs(home, 'get', 'alpha', 'fake timers', '--json')).stdout);
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
  });

  it('builds a dependency whose published doc package is of an older format, saying so, instead of failing', async () => {
    // Published by an older docs (format 1): this docs cannot read it, so sync builds gizmo as if none were published.
    const old = path.join(dir, 'old-gizmo');
    await mkdir(old, { recursive: true });
    const docsField = { library: 'gizmo', version: '0.3.1', format: 1, file: 'gizmo@0.3.1.db' };
    await writeFile(
      path.join(old, 'package.json'),
      JSON.stringify({ name: '@acme/docs-gizmo', version: '0.3.1', docs: docsField }),
    );
    await writeFile(path.join(old, 'gizmo@0.3.1.db'), 'an old package file');
    const published = await run('npm', ['publish', old, '--access', 'public'], registry.project, registry.env);
    expect(published.code, published.stderr).toBe(0);

    const result = await docs(path.join(dir, 'synced-old'), 'sync', registry.project, '--scope', '@acme', '--no-types');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /gizmo@0\.3\.1: @acme\/docs-gizmo@0\.3\.1 holds package format 1, and this docs reads format \d+; building it here instead/,
    );
    expect(result.stdout).toMatch(/Built gizmo@0\.3\.1:/);
    expect(result.stdout).toMatch(/1 installed from @acme, 1 built, 0 skipped, 0 failed/);
  });
});

describe('a doc package that says it holds another library', () => {
  it('is refused by docs install and docs sync --scope, naming both, and the library it names is untouched', async () => {
    // @acme/docs-react@19.2.0 holds alpha's package and says so in its manifest: installed as it says, it would
    // replace alpha's docs when someone asked for react's.
    const evil = path.join(dir, 'evil-react');
    await mkdir(evil, { recursive: true });
    await copyFile(path.join(dir, 'publisher', 'alpha@1.0.0.db'), path.join(evil, 'alpha@1.0.0.db'));
    const docsField = { library: 'alpha', version: '1.0.0', format: PACKAGE_FORMAT_VERSION, file: 'alpha@1.0.0.db' };
    await writeFile(
      path.join(evil, 'package.json'),
      JSON.stringify({ name: '@acme/docs-react', version: '19.2.0', docs: docsField }),
    );
    const published = await run('npm', ['publish', evil, '--access', 'public'], registry.project, registry.env);
    expect(published.code, published.stderr).toBe(0);

    const home = path.join(dir, 'victim');
    const alpha = await docs(home, 'install', 'alpha@1.0.0', '--scope', '@acme');
    expect(alpha.code, alpha.stderr).toBe(0);
    const refusal = /@acme\/docs-react@19\.2\.0 is the doc package of react, but it says it documents alpha; refused/;
    const installed = await docs(home, 'install', 'react@19.2.0', '--scope', '@acme');
    expect(installed.code).toBe(2);
    expect(installed.stderr).toMatch(refusal);
    expect(installed.stdout).not.toMatch(/Installed react/);

    const project = registry.project;
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'project', private: true, dependencies: { react: '19.2.0' } }),
    );
    const react = path.join(project, 'node_modules', 'react');
    await mkdir(react, { recursive: true });
    await writeFile(path.join(react, 'package.json'), JSON.stringify({ name: 'react', version: '19.2.0' }));
    await writeFile(
      path.join(react, 'README.md'),
      '# react\n\n## Hooks\n\nCall useState to keep state in a component.\n',
    );
    const synced = await docs(home, 'sync', project, '--scope', '@acme', '--no-types');
    expect(synced.stdout).not.toMatch(/Installed react/);
    expect(`${synced.stdout}${synced.stderr}`).toMatch(refusal);
    // alpha is still the publisher's alpha, and no package says it is react while holding alpha.
    const listed = JSON.parse((await docs(home, 'list', '--json')).stdout) as {
      libraries: { name: string; version: string }[];
    };
    expect(listed.libraries.filter((l) => l.name === 'alpha').map((l) => l.version)).toEqual(['1.0.0']);
    const answer = JSON.parse((await docs(home, 'get', 'alpha', 'fake timers', '--json')).stdout);
    expect(answer.results[0]).toMatchObject({ library: 'alpha@1.0.0', path: 'guide/timers.md' });
  });
});
