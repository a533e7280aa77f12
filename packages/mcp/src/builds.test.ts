import { afterAll, describe, expect, it } from 'vitest';
import { documentOf, TestKit, textOf } from './__tests__/kit.js';
import type { LibraryBuildState, LibraryBuilds } from './index.js';

// get_docs with a server that follows its project (LibraryBuilds, which `docs serve` gives it; the follower itself is
// tested with real processes in apps/cli's follow.test.ts): what it asks, and how an answer says a build runs.

const kit = new TestKit();
afterAll(() => kit.cleanup());

/** Builds that answer `state` for every library, recording what was asked. */
function buildsAnswering(state: LibraryBuildState, building: readonly string[] = []) {
  const asked: string[] = [];
  let checks = 0;
  const builds: LibraryBuilds = {
    check: () => {
      checks += 1;
    },
    awaitBuild: async (name, version) => {
      asked.push(`${name}@${version}`);
      return state;
    },
    building: () => building,
  };
  return { builds, asked, checks: () => checks };
}

const widget = {
  name: 'widget',
  version: '1.0.0',
  documents: [documentOf('README.md', 'widget', [['Gears', 'The gears option of widget turns the wheels.']])],
};

describe('get_docs over a project being followed', () => {
  it('answers from the version the store has while the installed one builds, saying when to ask again', async () => {
    const store = await kit.storeWith([widget]);
    const { builds, asked, checks } = buildsAnswering({ state: 'building', retryAfterSeconds: 7 });
    const { call } = await kit.connect({ store, builds, projectVersion: async () => '2.0.0' });
    const text = textOf(await call('get_docs', { library: 'widget', topic: 'gears' }));
    expect(text).toMatch(/^## widget@1\.0\.0 · /m);
    expect(text).toContain(
      'The project uses widget@2.0.0, which is being built now (answered from widget@1.0.0 meanwhile): ask again in about 7 seconds',
    );
    expect(text).not.toContain('docs sync');
    expect(asked).toEqual(['widget@2.0.0']);
    // Asked for a version by name, it waits for nothing; every call lets the builds look at the project.
    await call('get_docs', { library: 'widget@1.0.0', topic: 'gears' });
    expect(asked).toEqual(['widget@2.0.0']);
    expect(checks()).toBe(2);
  });

  it('says a library the store lacks is being built, in its error', async () => {
    const store = await kit.storeWith([widget]);
    const { builds } = buildsAnswering({ state: 'building', retryAfterSeconds: 4 });
    const { call } = await kit.connect({ store, builds, projectVersion: async () => '3.1.0' });
    const result = await call('get_docs', { library: 'gizmo', topic: 'gears' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /not installed.*The project installs gizmo@3\.1\.0, which is being built now: ask again in about 4 seconds\./s,
    );
  });

  it('with no build coming, answers as before: how to add the version the project uses', async () => {
    const store = await kit.storeWith([widget]);
    const { builds } = buildsAnswering({ state: 'none' });
    const { call } = await kit.connect({ store, builds, projectVersion: async () => '2.0.0' });
    const text = textOf(await call('get_docs', { library: 'widget', topic: 'gears' }));
    expect(text).toContain(
      'The project uses widget@2.0.0, which is not installed (answered from widget@1.0.0): add it with docs sync',
    );
  });

  it('search_all waits for no build, and names the libraries being built, with the version answered meanwhile', async () => {
    const store = await kit.storeWith([widget]);
    const { builds, asked } = buildsAnswering({ state: 'building', retryAfterSeconds: 3 }, [
      'widget@2.0.0',
      'gizmo@1.0.0',
    ]);
    const { call } = await kit.connect({ store, builds, projectVersion: async () => '2.0.0' });
    const text = textOf(await call('search_all', { topic: 'gears' }));
    expect(text).toMatch(/^## widget@1\.0\.0 · /m);
    expect(text).toContain(
      'Being built now (the project installs them; ask again shortly): widget@2.0.0 (answered from widget@1.0.0 meanwhile), gizmo@1.0.0.',
    );
    expect(asked).toEqual([]);
    // Nothing being built: no note.
    const idle = buildsAnswering({ state: 'none' });
    const quiet = await kit.connect({ store, builds: idle.builds });
    expect(textOf(await quiet.call('search_all', { topic: 'gears' }))).not.toContain('Being built');
  });
});
