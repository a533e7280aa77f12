import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type DocumentInput,
  PACKAGE_FORMAT_VERSION,
  PackageStore,
  resolveErrorMessage,
  writePackage,
} from '@docs/store';
import Database from 'better-sqlite3';
import libnpmpublish from 'libnpmpublish';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistry, type TestRegistry } from '../../../../scripts/verdaccio.mjs';
import { docPackageReadme } from './doc-package.js';
import { installDocPackage } from './install.js';
import { loadNpmOptions } from './npm-config.js';
import { packTarball, publishDocPackage } from './publish.js';
import type { RegistryError } from './registry-error.js';

// Publishing and installing doc packages through a real registry (verdaccio, started here).

const page = (topic: string): DocumentInput => ({
  path: `${topic}.md`,
  title: topic,
  content: `# ${topic}\n\nHow ${topic} works.`,
  chunks: [{ breadcrumb: [topic], level: 1, content: `How ${topic} works, explained.`, tokens: 6 }],
});

let registry: TestRegistry;
let dir: string;
/** The publisher's store, holding the packages built "elsewhere". */
let source: PackageStore;

async function build(name: string, version: string, topics: string[]) {
  const file = path.join(dir, `${name}@${version}.db`);
  await writePackage(file, { name, version, source: `https://example.com/${name}` }, topics.map(page));
  await source.install(file, { move: true });
}

/**
 * Publishes a package file that docs publish would refuse, as someone could with npm itself:
 * a valid package changed by `tamper` afterwards, under a manifest that looks right.
 */
async function publishHostile(
  name: string,
  tamper: (db: Database.Database) => void,
  /** The npm package it is published as. @default `@acme/docs-${name}` */
  packageName = `@acme/docs-${name}`,
) {
  const file = path.join(dir, `${name}@1.0.0.db`);
  await writePackage(file, { name, version: '1.0.0' }, [page('install')]);
  const db = new Database(file);
  tamper(db);
  db.close();
  const docs = {
    library: name,
    version: '1.0.0',
    format: PACKAGE_FORMAT_VERSION,
    file: `${name}@1.0.0.db`,
    documents: 1,
    sections: 1,
    tokens: 6,
    source: '',
    builtAt: new Date().toISOString(),
  };
  const manifest = { name: packageName, version: '1.0.0', docs };
  const tarball = await packTarball(file, manifest, docPackageReadme(packageName, docs));
  const npm = await loadNpmOptions({
    scope: '@acme',
    cwd: registry.project,
    approveProjectNpmrc: () => true,
    env: registry.env,
  });
  await libnpmpublish.publish(manifest, tarball, npm);
}

async function publishDocs(spec: string, extra: { tag?: string; dryRun?: boolean } = {}) {
  const found = await source.resolve(spec);
  if (!found.ok) throw new Error(resolveErrorMessage(found.error));
  return publishDocPackage(source, found.value, {
    scope: '@acme',
    cwd: registry.project,
    approveProjectNpmrc: () => true,
    env: registry.env,
    ...extra,
  });
}

/** A fresh, empty store to install into. */
async function emptyStore(): Promise<PackageStore> {
  return new PackageStore(await mkdtemp(path.join(dir, 'store-')));
}

async function refusal(promise: Promise<unknown>): Promise<RegistryError | Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  registry = await startRegistry();
  dir = await mkdtemp(path.join(tmpdir(), 'docs-registry-test-'));
  source = new PackageStore(path.join(dir, 'source'));
  await build('widget', '1.2.0', ['install', 'timers']);
  await build('widget', '1.3.0', ['install', 'timers', 'plugins']);
  await build('widget', '1.4.0', ['install', 'timers', 'plugins']);
  await build('widget', '2.0.0', ['install', 'migration']);
  await build('tampered', '1.0.0', ['install']);
});
afterAll(async () => {
  await source.close();
  await registry.close();
  await rm(dir, { recursive: true, force: true });
});

describe('publishDocPackage', () => {
  it('publishes @acme/docs-<library> at the library version, marked as a doc package, with a README', async () => {
    const dry = await publishDocs('widget@1.2.0', { dryRun: true });
    expect(dry).toMatchObject({ name: '@acme/docs-widget', version: '1.2.0', dryRun: true });
    const before = await fetch(`${registry.url}@acme%2fdocs-widget`, {
      headers: { authorization: `Bearer ${registry.token}` },
    });
    expect(before.status).toBe(404);
    const result = await publishDocs('widget@1.2.0');
    expect(result).toMatchObject({
      name: '@acme/docs-widget',
      version: '1.2.0',
      tag: 'latest',
      registry: registry.url,
    });
    expect(result.integrity).toMatch(/^sha512-/);
    const response = await fetch(`${registry.url}@acme%2fdocs-widget`, {
      headers: { authorization: `Bearer ${registry.token}` },
    });
    const packument = (await response.json()) as { readme?: string; versions: Record<string, { docs: unknown }> };
    expect(packument.readme).toContain('docs install @acme/docs-widget@1.2.0');
    expect(packument.versions['1.2.0']?.docs).toEqual({
      library: 'widget',
      version: '1.2.0',
      format: expect.any(Number),
      file: 'widget@1.2.0.db',
      documents: 2,
      sections: 2,
      // Counted again when the built file was installed: each section's text and its own heading.
      tokens: 15,
      source: 'https://example.com/widget',
      builtAt: expect.stringMatching(/^\d{4}-/),
    });
    await publishDocs('widget@1.3.0');
  });

  it('refuses a wrong token with a clear error, and publishes nothing', async () => {
    await registry.npmrc('not-the-token');
    try {
      const wrong = await refusal(publishDocs('widget@2.0.0'));
      expect(wrong).toMatchObject({ code: 'unauthorized' });
      expect(wrong.message).toMatch(/refused .*HTTP 40[13].*check the token for this registry in \.npmrc/);
    } finally {
      await registry.npmrc(registry.token);
    }
    const packument = await fetch(`${registry.url}@acme%2fdocs-widget`, {
      headers: { authorization: `Bearer ${registry.token}` },
    }).then((r) => r.json() as Promise<{ versions: Record<string, unknown> }>);
    expect(Object.keys(packument.versions)).toEqual(['1.2.0', '1.3.0']);
    await publishDocs('widget@2.0.0');
  });

  it('refuses a version already published, saying what to do, and one below latest without a tag', async () => {
    const again = await refusal(publishDocs('widget@1.2.0', { tag: 'v1' }));
    expect(again).toMatchObject({ code: 'already-published' });
    expect(again.message).toMatch(
      /already on .* \(built .*, package format \d\); a registry never accepts a version twice.*npm unpublish @acme\/docs-widget@1\.2\.0/,
    );
    const older = await refusal(publishDocs('widget@1.4.0'));
    expect(older.message).toMatch(/below @acme\/docs-widget@2\.0\.0, which is "latest".*--tag v1/);
    expect(await publishDocs('widget@1.4.0', { tag: 'v1' })).toMatchObject({ version: '1.4.0', tag: 'v1' });
  });
});

describe('installDocPackage', () => {
  it('installs by exact version and by range, through the scoped .npmrc and its token, and the package searches', async () => {
    const store = await emptyStore();
    const exact = await installDocPackage(store, '@acme/docs-widget@1.2.0', {
      cwd: registry.project,
      approveProjectNpmrc: () => true,
      env: registry.env,
    });
    expect(exact.installed).toMatchObject({ name: 'widget', version: '1.2.0' });
    const ranged = await installDocPackage(store, 'widget@^1', {
      scope: '@acme',
      cwd: registry.project,
      approveProjectNpmrc: () => true,
      env: registry.env,
    });
    expect(ranged.spec).toBe('@acme/docs-widget@1.4.0');
    expect((await store.list()).map((p) => `${p.name}@${p.version}`)).toEqual(['widget@1.4.0', 'widget@1.2.0']);
    const found = await store.resolve('widget@1.4.0');
    if (!found.ok) throw new Error(resolveErrorMessage(found.error));
    const hits = await store.reader(found.value).search({ terms: ['plugins'], mode: 'all' }, { limit: 5 });
    expect(hits[0]?.path).toBe('plugins.md');
    await store.close();
  });

  it('lists the published versions when none matches, and says when the package does not exist', async () => {
    const store = await emptyStore();
    const missing = await refusal(
      installDocPackage(store, 'widget@3', {
        scope: '@acme',
        cwd: registry.project,
        approveProjectNpmrc: () => true,
        env: registry.env,
      }),
    );
    expect(missing).toMatchObject({ code: 'no-matching-version' });
    expect(missing.message).toContain('Published: 2.0.0, 1.4.0, 1.3.0, 1.2.0');
    const unknown = await refusal(
      installDocPackage(store, 'gadget', {
        scope: '@acme',
        cwd: registry.project,
        approveProjectNpmrc: () => true,
        env: registry.env,
      }),
    );
    expect(unknown).toMatchObject({ code: 'not-found' });
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
  });

  it('refuses a wrong token with a clear error', async () => {
    const store = await emptyStore();
    await registry.npmrc('not-the-token');
    try {
      const wrong = await refusal(
        installDocPackage(store, 'widget@1', {
          scope: '@acme',
          cwd: registry.project,
          approveProjectNpmrc: () => true,
          env: registry.env,
        }),
      );
      expect(wrong).toMatchObject({ code: 'unauthorized' });
    } finally {
      await registry.npmrc(registry.token);
    }
  });

  it('refuses a tarball that does not match its published integrity, and the store is unchanged', async () => {
    await publishDocs('tampered@1.0.0');
    const tarball = path.join(registry.storage, '@acme', 'docs-tampered', 'docs-tampered-1.0.0.tgz');
    // Swapped on the registry's disk for another well-formed tarball: what a compromised mirror would serve.
    const other = path.join(registry.storage, '@acme', 'docs-widget', 'docs-widget-1.2.0.tgz');
    await writeFile(tarball, await readFile(other));
    const store = await emptyStore();
    const refused = await refusal(
      installDocPackage(store, 'tampered@1.0.0', {
        scope: '@acme',
        cwd: registry.project,
        approveProjectNpmrc: () => true,
        env: registry.env,
      }),
    );
    expect(refused).toMatchObject({ code: 'integrity' });
    expect(refused.message).toMatch(/does not match the integrity the registry published/);
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
  });

  it('refuses a package that unpacks past the limit before writing it, and the store is unchanged', async () => {
    const store = await emptyStore();
    const install = { scope: '@acme', cwd: registry.project, approveProjectNpmrc: () => true, env: registry.env };
    const refused = await refusal(installDocPackage(store, 'widget@1.2.0', { ...install, maxBytes: 4096 }));
    expect(refused).toMatchObject({ code: 'too-large' });
    expect(refused.message).toMatch(
      /@acme\/docs-widget@1\.2\.0 unpacks to more than 4 KiB, the limit for a doc package; refused/,
    );
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
    // The same package under the default limit installs.
    await expect(installDocPackage(store, 'widget@1.2.0', install)).resolves.toMatchObject({
      spec: '@acme/docs-widget@1.2.0',
    });
    await store.close();
  });

  it('refuses a package whose manifest and file hold another library than its name binds it to, naming both', async () => {
    // @acme/docs-gadget says, in its manifest and its file alike, that it holds widget@1.0.0: installed as it says, it
    // would replace widget's docs when someone asked for gadget's.
    await publishHostile('widget', () => undefined, '@acme/docs-gadget');
    const store = await emptyStore();
    const install = { scope: '@acme', cwd: registry.project, approveProjectNpmrc: () => true, env: registry.env };
    await installDocPackage(store, 'widget@1.2.0', install);
    const before = await readdir(store.dir);
    for (const spec of ['gadget@1.0.0', '@acme/docs-gadget@1.0.0']) {
      const refused = await refusal(installDocPackage(store, spec, install));
      expect(refused).toMatchObject({ code: 'not-a-doc-package' });
      expect(refused.message).toBe(
        '@acme/docs-gadget@1.0.0 is the doc package of gadget, but it says it documents widget; refused',
      );
    }
    expect(await readdir(store.dir)).toEqual(before);
    expect((await store.list()).map((p) => `${p.name}@${p.version}`)).toEqual(['widget@1.2.0']);
    await store.close();
  });

  it('refuses a package whose .db has a trigger, as docs add refuses the file, and the store is unchanged', async () => {
    await publishHostile('sneaky', (db) =>
      db.exec('CREATE TRIGGER sneaky AFTER INSERT ON documents BEGIN DELETE FROM chunks; END'),
    );
    const store = await emptyStore();
    await installDocPackage(store, 'widget@1.2.0', {
      scope: '@acme',
      cwd: registry.project,
      approveProjectNpmrc: () => true,
      env: registry.env,
    });
    const before = await readdir(store.dir);
    const refused = await refusal(
      installDocPackage(store, 'sneaky@1.0.0', {
        scope: '@acme',
        cwd: registry.project,
        approveProjectNpmrc: () => true,
        env: registry.env,
      }),
    );
    expect(refused.message).toMatch(/unexpected trigger sneaky/);
    expect(await readdir(store.dir)).toEqual(before);
    await store.close();
  });
});
