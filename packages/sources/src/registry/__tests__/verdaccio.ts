import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

// A real npm registry for tests: verdaccio on 127.0.0.1, port 0, with its storage in a temp
// directory and one user, created through the registry's own user API (not part of the build).

/** A running registry and a project whose .npmrc points the scope at it with a token. */
export interface TestRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly token: string;
  /** Where verdaccio keeps tarballs: `<storage>/@acme/docs-x/docs-x-1.0.0.tgz`. */
  readonly storage: string;
  /** A folder with an .npmrc for `@acme` (the token included): the cwd to pass. */
  readonly project: string;
  /** An environment with no npm settings but a cache, user config and HOME of the test's own. */
  readonly env: NodeJS.ProcessEnv;
  /** Writes the project's .npmrc with another token (or none). */
  npmrc(token: string | undefined): Promise<void>;
  close(): Promise<void>;
}

export async function startRegistry(scope = '@acme'): Promise<TestRegistry> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-verdaccio-'));
  const storage = path.join(dir, 'storage');
  const { runServer } = createRequire(import.meta.url)('verdaccio') as {
    runServer: (config: unknown) => Promise<{ listen: (port: number, host: string, done: () => void) => Server }>;
  };
  const app = await runServer({
    self_path: dir,
    storage,
    auth: { htpasswd: { file: path.join(dir, 'htpasswd'), max_users: 10 } },
    uplinks: {},
    // Reading a scope's docs needs a login too, as on a company registry.
    packages: { '**': { access: '$authenticated', publish: '$authenticated', unpublish: '$authenticated' } },
    logs: { type: 'stdout', format: 'pretty', level: 'fatal' },
    web: { enable: false },
  });
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('verdaccio did not listen on a port');
  const url = `http://127.0.0.1:${address.port}/`;
  const created = await fetch(`${url}-/user/org.couchdb.user:tester`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'a-long-test-password' }),
  });
  const { token } = (await created.json()) as { token?: string };
  if (!created.ok || !token) throw new Error(`verdaccio refused to create the test user: HTTP ${created.status}`);

  const project = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  const npmrc = async (value: string | undefined) => {
    const lines = [`${scope}:registry=${url}`, ...(value ? [`//127.0.0.1:${address.port}/:_authToken=${value}`] : [])];
    await writeFile(path.join(project, '.npmrc'), `${lines.join('\n')}\n`);
  };
  await mkdir(project);
  await mkdir(home);
  await writeFile(path.join(project, 'package.json'), '{ "name": "project", "private": true }\n');
  await npmrc(token);
  // Nothing from the machine's npm setup (or pnpm's npm_config_* variables) reaches the test.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    npm_config_cache: path.join(dir, 'cache'),
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_globalconfig: path.join(home, 'global-npmrc'),
    // npm retries a failed download (an integrity mismatch too) after 10 s; a refusal here should be immediate.
    npm_config_fetch_retries: '0',
  };
  return {
    url,
    token,
    storage,
    project,
    env,
    npmrc,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
