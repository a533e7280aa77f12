// A real npm registry for tests and trials: verdaccio on 127.0.0.1 (a free port), with its
// storage in a temp directory and one user created through the registry's own user API.
//
//   node scripts/verdaccio.mjs [--scope @acme] [--port 4873]
//
// starts one and prints the .npmrc lines that point the scope at it with the user's token;
// tests import startRegistry() instead.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** @param {string} [scope] @param {number} [port] @returns {Promise<import('./verdaccio.d.mts').TestRegistry>} */
export async function startRegistry(scope = '@acme', port = 0) {
  const dir = await mkdtemp(path.join(tmpdir(), 'docs-verdaccio-'));
  const storage = path.join(dir, 'storage');
  const { runServer } = createRequire(import.meta.url)('verdaccio');
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
  /** @type {import('node:http').Server} */
  const server = await new Promise((resolve) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('verdaccio did not listen on a port');
  const url = `http://127.0.0.1:${address.port}/`;
  const created = await fetch(`${url}-/user/org.couchdb.user:tester`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'a-long-test-password' }),
  });
  const { token } = await created.json();
  if (!created.ok || !token) throw new Error(`verdaccio refused to create the test user: HTTP ${created.status}`);

  const project = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  await mkdir(project);
  await mkdir(home);
  /** @param {string | undefined} value */
  const npmrcLines = (value) => [
    `${scope}:registry=${url}`,
    ...(value ? [`//127.0.0.1:${address.port}/:_authToken=${value}`] : []),
  ];
  /** @param {string | undefined} value */
  const npmrc = async (value) => {
    await writeFile(path.join(project, '.npmrc'), `${npmrcLines(value).join('\n')}\n`);
  };
  await writeFile(path.join(project, 'package.json'), '{ "name": "project", "private": true }\n');
  await npmrc(token);
  // Nothing from the machine's npm setup (or pnpm's npm_config_* variables) reaches a test.
  const env = {
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
    npmrcText: npmrcLines(token).join('\n'),
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { scope: { type: 'string', default: '@acme' }, port: { type: 'string', default: '0' } },
  });
  const registry = await startRegistry(values.scope, Number(values.port));
  process.stdout.write(
    `verdaccio at ${registry.url} (storage ${registry.storage}); put these lines in your project's .npmrc:\n\n${registry.npmrcText}\n\nCtrl-C stops it and removes its storage.\n`,
  );
  const stop = () => registry.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
