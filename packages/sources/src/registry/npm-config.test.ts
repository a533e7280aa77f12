import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadNpmOptions, registryFor } from './npm-config.js';

// Where doc packages go is npm's configuration's to say: docs writes no registry host of its own.

let home: string;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'docs-npm-config-'));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/** An environment that reads no configuration of this machine's user: an empty home and no npm variables. */
function isolated(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { HOME: home, PATH: process.env.PATH ?? '', ...extra };
}

describe('registryFor', () => {
  it("is npm's own default registry when nothing names one", async () => {
    const npm = await loadNpmOptions({ scope: '@acme', cwd: home, env: isolated() });
    expect(registryFor('@acme', npm)).toBe(npm.registry);
    expect(registryFor('@acme', npm)).toMatch(/^https:\/\//);
  });

  it('follows a mirror set for npm in the environment, and a scope registry in the user .npmrc over it', async () => {
    const mirror = 'http://127.0.0.1:9/mirror/';
    const env = isolated({ npm_config_registry: mirror });
    expect(registryFor('@acme', await loadNpmOptions({ scope: '@acme', cwd: home, env }))).toBe(mirror);
    await writeFile(path.join(home, '.npmrc'), '@acme:registry=http://127.0.0.1:9/acme/\n');
    const npm = await loadNpmOptions({ scope: '@acme', cwd: home, env });
    expect(registryFor('@acme', npm)).toBe('http://127.0.0.1:9/acme/');
    expect(registryFor('@other', npm)).toBe(mirror);
  });

  it('says it is a bug when given options that name no registry', () => {
    expect(() => registryFor('@acme', {})).toThrow(/names no registry for @acme/);
  });
});
