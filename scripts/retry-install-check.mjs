#!/usr/bin/env node
// The README's set-up command is safe to run again after an install that failed half way.
//
// On a copy of the repository (no node_modules), a first install fails in better-sqlite3's build (a build from source
// with no Node headers, as on a machine with no prebuilt binary and no headers); then the README's command,
// `npx -y pnpm@<version> install`, run again as a newcomer would, must finish and leave a working better-sqlite3.
// This once failed with only "sh: 1: pnpm: not found": pnpm was a devDependency of the root, the failed install left
// node_modules/pnpm without node_modules/.bin, and npx ran that broken local copy.
//
// Cheap after a normal install (the CI's first step): the packages come from pnpm's store and better-sqlite3's build
// from its side-effects cache. Then `npx -y pnpm@<version> demo`, the rest of the README's first set-up command, builds
// the copy and answers its question. Prints PASS/FAIL lines and a last line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pnpm = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).packageManager;
const work = mkdtempSync(path.join(tmpdir(), 'docs-retry-install-'));
const copy = path.join(work, 'repo');
let passed = 0;
let failed = 0;

function check(name, fn) {
  try {
    const detail = fn();
    passed++;
    console.log(`PASS ${name}${detail ? ` (${detail})` : ''}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${(error instanceof Error ? error.message : String(error)).trim()}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Runs a command in the copy with the environment a user's shell would give it (no npm_/pnpm_ from a script). */
function run(command, args, extraEnv = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));
  const result = spawnSync(command, args, {
    cwd: copy,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  const output = `${result.stdout ?? ''}\n${result.stderr ?? ''}`.trim();
  return { code: result.status, output, tail: output.split('\n').slice(-8).join('\n') };
}

cpSync(root, copy, {
  recursive: true,
  filter: (source) => !/(^|[/\\])(node_modules|\.git|\.turbo|dist)$/.test(path.relative(root, source)),
});

check('a first install that fails half way (better-sqlite3 cannot build: no Node headers)', () => {
  const first = run('npx', ['-y', pnpm, 'install', '--frozen-lockfile', '--config.side-effects-cache=false'], {
    // A build from source (no prebuilt binary) with headers where there are none.
    npm_config_build_from_source: 'true',
    npm_config_nodedir: path.join(work, 'no-node-headers'),
  });
  assert(first.code !== 0, `the install was meant to fail, but exited 0:\n${first.tail}`);
  assert(/better-sqlite3/.test(first.output), `it failed, but not in better-sqlite3:\n${first.tail}`);
  assert(!existsSync(path.join(copy, 'node_modules/pnpm')), 'node_modules/pnpm exists: npx would run that copy');
  return `exit code ${first.code}, node_modules/pnpm absent`;
});

check(`the README's command recovers: npx -y ${pnpm} install`, () => {
  const again = run('npx', ['-y', pnpm, 'install', '--frozen-lockfile']);
  assert(again.code === 0, `exit code ${again.code}:\n${again.tail}`);
  assert(!/pnpm: not found/.test(again.output), again.tail);
  assert(!/Unknown project config/.test(again.output), `npm warns about the project's config:\n${again.tail}`);
  const store = path.join(copy, 'packages/store');
  const sqlite = spawnSync(
    process.execPath,
    [
      '-e',
      "const D = require('better-sqlite3'); console.log(new D(':memory:').prepare('select sqlite_version() v').get().v)",
    ],
    { cwd: store, encoding: 'utf8' },
  );
  assert(sqlite.status === 0, `better-sqlite3 does not load:\n${sqlite.stderr}`);
  return `SQLite ${sqlite.stdout.trim()}`;
});

check(`the README's first set-up command then runs the main job: npx -y ${pnpm} demo`, () => {
  // Build, then packages from installed dependencies' READMEs and one question across them: the first thing a newcomer
  // runs, which no test ran. Its default question is semver's to answer.
  const demo = run('npx', ['-y', pnpm, 'demo']);
  assert(demo.code === 0, `exit code ${demo.code}:\n${demo.tail}`);
  const answered = /^── semver@\S+ · (.+)$/m.exec(demo.output);
  assert(answered, `no semver section in the answer:\n${demo.tail}`);
  return `first result: semver, ${answered[1].split(' · ')[0]}`;
});

rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
