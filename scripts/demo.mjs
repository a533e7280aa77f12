#!/usr/bin/env node
// The main job on an embedded default: build documentation packages from the
// READMEs of dependencies this repository installs (at their installed
// versions), then answer one question across all of them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'apps/cli/dist/bin.cjs');
// pnpm links each workspace package's dependencies into its own node_modules.
const installed = (workspace, name) => realpathSync(path.join(root, workspace, 'node_modules', name));
const libraries = [
  installed('packages/store', 'better-sqlite3'),
  installed('packages/store', 'kysely'),
  installed('packages/store', 'semver'),
  installed('apps/cli', 'commander'),
];
const question = process.argv.slice(2).join(' ') || 'check whether a version satisfies a range';

const home = mkdtempSync(path.join(tmpdir(), 'docs-demo-'));
const run = (...args) => {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, DOCS_HOME: home },
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
try {
  for (const dir of libraries) run('add', dir);
  console.log(`\n$ docs search "${question}"\n`);
  run('search', question, '--tokens', '1200');
} finally {
  rmSync(home, { recursive: true, force: true });
}
