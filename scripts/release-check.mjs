#!/usr/bin/env node
// Release checks, run on the packed tarballs rather than the workspace: a dry
// run of the release (`changeset version` on a scratch copy, then `pnpm pack`
// of every publishable package), the tarballs' manifests and contents, publint
// and attw on each, @docs/rank installed alone into a new project and used from
// JavaScript and TypeScript, and the CLI installed from the tarballs as the
// registry would install it, then run: --version, add, search, one MCP call over
// stdio, and every package README's example.
//
// Each check prints one line, PASS or FAIL; the last line is "N passed, N failed".
// Needs built packages (`pnpm build`) and the npm registry for third-party
// dependencies. `--keep` leaves the temporary directories for a look.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStdioClient } from './release-check/stdio-client.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = path.join(root, 'scripts/release-check/fixtures');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const keep = process.argv.includes('--keep');
/** The packed @docs/rank must stay small: it is a handful of pure functions. */
const RANK_MAX_BYTES = 20 * 1024;
/** Compiling better-sqlite3 from source (no prebuilt binary can be downloaded here) takes minutes. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;

const work = mkdtempSync(path.join(tmpdir(), 'docs-release-check-'));
/** The README examples make temporary directories of their own: here, so they go with `work`. */
const exampleTmp = path.join(work, 'tmp');
mkdirSync(exampleTmp);
let passed = 0;
let failed = 0;

/** Runs one check: PASS with an optional detail the check returns, or FAIL with the reason. */
async function check(name, fn) {
  const started = performance.now();
  try {
    const detail = await fn();
    passed++;
    console.log(`PASS ${name}${detail ? ` (${detail})` : ''} ${seconds(started)}`);
  } catch (error) {
    failed++;
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`FAIL ${name} ${seconds(started)}: ${reason.trim().replace(/\n/g, '\n     ')}`);
  }
}

function seconds(started) {
  return `[${((performance.now() - started) / 1000).toFixed(1)}s]`;
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Runs a command; resolves with its output, rejects with it when it fails or times out. */
function run(command, args, { cwd = root, env = process.env, timeout = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else {
        const why = signal ? `killed by ${signal} (timeout ${timeout / 1000}s?)` : `exit code ${code}`;
        const output = `${stdout}\n${stderr}`.trim().split('\n').slice(-25).join('\n');
        reject(new Error(`${[command, ...args].map((a) => path.basename(a)).join(' ')}: ${why}\n${output}`));
      }
    });
  });
}

/** The environment a user's shell would give npm: none of the npm_/pnpm_ variables a package script inherits. */
function userEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The file `pnpm pack` writes for a package: `@docs/cli` 1.2.3 → docs-cli-1.2.3.tgz. */
const tarballName = (manifest) => `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;

/**
 * pnpm as the README runs it, through npx at the `packageManager` version: it is not a dependency of the
 * root (a half-finished install would leave a local copy npx picks without its bin).
 */
function pnpm(args, options) {
  return run('npx', ['-y', readJson(path.join(root, 'package.json')).packageManager, ...args], {
    timeout: 300_000,
    ...options,
  });
}

/** Every file under `dir`, as `/`-separated relative paths. */
function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** The workspace's packages (pnpm-workspace.yaml: packages/*, apps/*), with their manifests. */
function workspacePackages(base) {
  return ['packages', 'apps'].flatMap((group) =>
    readdirSync(path.join(base, group))
      .filter((name) => existsSync(path.join(base, group, name, 'package.json')))
      .map((name) => {
        const dir = path.join(base, group, name);
        return { dir, manifest: readJson(path.join(dir, 'package.json')) };
      }),
  );
}

/** Packages named in pending changesets. */
function pendingReleases(base) {
  const dir = path.join(base, '.changeset');
  const names = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(path.join(dir, file), 'utf8'))?.[1] ?? '';
    for (const match of front.matchAll(/^\s*["']?([^"':\s]+)["']?\s*:\s*(major|minor|patch)\s*$/gm))
      names.add(match[1]);
  }
  return names;
}

const compareVersions = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).slice(0, 3).map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** The first fenced block of `language` in a README. */
function exampleOf(readme, language) {
  return new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(readme)?.[1];
}

// ─── The workspace ───────────────────────────────────────────────────────────

await check('knip: no unused files, exports or dependencies', async () => {
  await run(bin('knip'), ['--no-progress'], { timeout: 300_000 });
});

// ─── The release dry run ─────────────────────────────────────────────────────

const scratch = path.join(work, 'repo');
const tarballDir = path.join(work, 'tarballs');
/** name → { file, manifest, dir (unpacked), files, bytes } for each packed package. */
const packed = new Map();

await check('release dry run: changeset version on a scratch copy', async () => {
  const config = readJson(path.join(root, '.changeset/config.json'));
  assert(config.access === 'public', 'config.access must be "public"');
  assert(config.baseBranch === 'main', 'config.baseBranch must be "main"');
  assert(config.fixed.length === 0 && config.linked.length === 0, 'no fixed or linked groups: packages version alone');
  assert(config.updateInternalDependencies === 'patch', 'internal dependencies must be bumped as patches');

  cpSync(root, scratch, {
    recursive: true,
    filter: (source) => !/(^|[/\\])(node_modules|\.git|\.turbo)$/.test(path.relative(root, source)),
  });
  const before = new Map(workspacePackages(scratch).map((p) => [p.manifest.name, p.manifest]));
  const releases = pendingReleases(scratch);
  // The release flow: links from the lockfile (no lifecycle scripts: nothing is built here), then the version bump.
  await pnpm(['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts'], { cwd: scratch });
  await run(process.execPath, [path.join(scratch, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: scratch });

  const bumped = [];
  for (const { dir, manifest } of workspacePackages(scratch)) {
    const old = before.get(manifest.name);
    if (manifest.private) {
      assert(manifest.version === old.version, `${manifest.name} is private and must not be versioned`);
      continue;
    }
    if (releases.has(manifest.name)) {
      assert(
        compareVersions(manifest.version, old.version) > 0,
        `${manifest.name} has a changeset but stayed at ${manifest.version}`,
      );
      assert(existsSync(path.join(dir, 'CHANGELOG.md')), `${manifest.name} has no CHANGELOG.md`);
    }
    if (manifest.version !== old.version) bumped.push(`${manifest.name} ${old.version}→${manifest.version}`);
  }
  const left = readdirSync(path.join(scratch, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  assert(left.length === 0, `changesets left after version: ${left.join(', ')}`);
  return bumped.length > 0 ? bumped.join(', ') : 'no pending changesets';
});

await check("release dry run: pnpm pack of every publishable package, with the README's command", async () => {
  mkdirSync(tarballDir, { recursive: true });
  const publishable = workspacePackages(scratch).filter((p) => !p.manifest.private);
  assert(publishable.length > 0, 'nothing to pack (did the version step fail?)');
  // The README's "From packed tarballs" line, run as written but for the destination.
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const line = readme
    .split('\n')
    .find((l) => /^npx -y pnpm@\S+ -r .*\bpack --pack-destination ~\/docs-tarballs$/.test(l));
  assert(line, 'the README has no "npx -y pnpm@… -r … pack --pack-destination ~/docs-tarballs" line');
  const args = line
    .split(' ')
    .slice(3, -1)
    .map((a) => a.replace(/^'(.*)'$/, '$1'));
  await pnpm([...args, tarballDir], { cwd: scratch });
  const expected = publishable.map(({ manifest }) => tarballName(manifest)).sort();
  const written = readdirSync(tarballDir).sort();
  assert(written.join() === expected.join(), `packed ${written.join(', ')}; expected ${expected.join(', ')}`);
  for (const { manifest } of publishable) {
    const file = path.join(tarballDir, tarballName(manifest));
    assert(existsSync(file), `pnpm pack wrote no ${path.basename(file)}`);
    const unpacked = path.join(work, 'unpacked', manifest.name);
    mkdirSync(unpacked, { recursive: true });
    await run('tar', ['-xzf', file, '-C', unpacked]);
    const dirOf = path.join(unpacked, 'package');
    packed.set(manifest.name, {
      file,
      dir: dirOf,
      manifest: readJson(path.join(dirOf, 'package.json')),
      files: filesUnder(dirOf).sort(),
      bytes: statSync(file).size,
    });
  }
  return [...packed.values()].map((p) => `${p.manifest.name}@${p.manifest.version} ${kB(p.bytes)}`).join(', ');
});

function kB(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function tarballOf(name) {
  const pkg = packed.get(name);
  assert(pkg, `no tarball of ${name} (the pack step failed)`);
  return pkg;
}

const publishableNames = workspacePackages(root)
  .filter((p) => !p.manifest.private)
  .map((p) => p.manifest.name);

// ─── Each tarball ────────────────────────────────────────────────────────────

for (const name of publishableNames) {
  await check(`${name}: packed manifest and files`, async () => {
    const { manifest, files, dir } = tarballOf(name);
    const text = JSON.stringify(manifest);
    assert(!text.includes('workspace:'), 'a dependency still uses the workspace: protocol');
    // The development export condition is "@docs/source" exactly (a dependency on @docs/sources is fine).
    assert(!text.includes('"@docs/source"') && !/"\.\/src\//.test(text), 'the manifest points at src/');
    assert(manifest.type === 'module', '"type" must be "module" (ESM only)');
    assert(manifest.license === 'MIT', '"license" must be "MIT"');
    assert(manifest.engines?.node, '"engines.node" is missing');
    assert(typeof manifest.sideEffects === 'boolean', '"sideEffects" is missing');
    assert(manifest.exports?.['./package.json'] === './package.json', 'exports must include "./package.json"');
    assert(!manifest.private, 'the packed manifest is private');
    const stray = files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(f) &&
        !/^dist\/.+\.(c?js|d\.ts)$/.test(f) &&
        // The CLI's data its bundles read (bundle-add's o200k ranks, written from gpt-tokenizer's list).
        !(name === '@docs/cli' && /^dist\/bundle-[^/]+\.json$/.test(f)) &&
        // The server's web page: its bundled script, styles, icon and HTML, served from dist/web.
        !/^dist\/web\/[^/]+\.(css|svg|html)$/.test(f),
    );
    assert(
      stray.length === 0,
      `files beyond dist/*.js, dist/*.cjs, dist/*.d.ts, the CLI's dist/bundle-*.json, dist/web assets, README, LICENSE, CHANGELOG: ${stray.join(', ')}`,
    );
    assert(!files.some((f) => /\.test\.|__tests__|__fixtures__/.test(f)), 'tests are packed');
    assert(files.includes('README.md') && files.includes('LICENSE'), 'README.md and LICENSE must be packed');
    const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
    assert(
      /^## Install$/m.test(readme) && /^## Example$/m.test(readme),
      'the README needs "## Install" and "## Example"',
    );
    // The files the exports map points to (its values; its keys are subpaths such as "./stdio", not files).
    const exportTargets = (value) =>
      typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap((v) => exportTargets(v));
    const targets = exportTargets(manifest.exports).filter((t) => t.startsWith('./'));
    for (const target of [...targets, ...Object.values(manifest.bin ?? {})]) {
      const file = target.replace(/^\.\//, '');
      assert(files.includes(file), `"${target}" is not in the tarball`);
    }
    for (const file of Object.values(manifest.bin ?? {})) {
      const head = readFileSync(path.join(dir, file), 'utf8').split('\n')[0];
      assert(head === '#!/usr/bin/env node', `bin ${file} starts with "${head}", not a node shebang`);
    }
    return `${files.length} files`;
  });

  await check(`${name}: publint --strict on the tarball`, async () => {
    const { stdout } = await run(bin('publint'), ['run', tarballOf(name).file, '--strict']);
    return /All good/.test(stdout) ? 'all good' : stdout.trim().split('\n').pop();
  });

  await check(`${name}: attw --profile esm-only on the tarball`, async () => {
    const { manifest, file } = tarballOf(name);
    // A command-only package (no "." export) has only its package.json to resolve.
    const entry = manifest.exports?.['.'] ? [] : ['--entrypoints', './package.json'];
    await run(bin('attw'), [file, '--profile', 'esm-only', '--format', 'ascii', '--no-color', ...entry]);
    return manifest.exports?.['.'] ? 'types resolve for node16 (ESM) and bundler' : 'package.json only';
  });
}

// ─── @docs/rank alone ────────────────────────────────────────────────────────

const rankProject = path.join(work, 'rank-consumer');

await check('@docs/rank alone: packed with zero dependencies, small', async () => {
  const { manifest, bytes, files, dir } = tarballOf('@docs/rank');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    const names = Object.keys(manifest[field] ?? {});
    assert(names.length === 0, `${field} must be empty, got ${names.join(', ')}`);
  }
  assert(bytes <= RANK_MAX_BYTES, `${kB(bytes)} packed, over the ${kB(RANK_MAX_BYTES)} limit`);
  const unpacked = files.reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);
  return `${kB(bytes)} packed, ${kB(unpacked)} unpacked, ${files.length} files, 0 dependencies`;
});

await check('@docs/rank alone: npm install of the tarball into a new project, offline', async () => {
  mkdirSync(rankProject);
  writeFileSync(
    path.join(rankProject, 'package.json'),
    `${JSON.stringify({ name: 'rank-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  // --offline: with zero dependencies nothing needs the registry.
  await run('npm', ['install', '--offline', tarballOf('@docs/rank').file], { cwd: rankProject, env: userEnv() });
  const installed = readdirSync(path.join(rankProject, 'node_modules')).filter((n) => !n.startsWith('.'));
  const scoped = readdirSync(path.join(rankProject, 'node_modules/@docs'));
  assert(
    installed.join() === '@docs' && scoped.join() === 'rank',
    `node_modules holds ${installed.join(', ')} (@docs: ${scoped.join(', ')})`,
  );
  return 'node_modules holds @docs/rank only';
});

await check('@docs/rank alone: ranks a small list from plain JavaScript', async () => {
  cpSync(path.join(fixtures, 'rank-consumer/rank.mjs'), path.join(rankProject, 'rank.mjs'));
  const { stdout } = await run(process.execPath, ['rank.mjs'], { cwd: rankProject });
  return stdout.trim();
});

await check('@docs/rank alone: its README example runs', async () => {
  const example = exampleOf(readFileSync(path.join(tarballOf('@docs/rank').dir, 'README.md'), 'utf8'), 'js');
  assert(example, 'no ```js example in the README');
  writeFileSync(path.join(rankProject, 'readme-example.mjs'), example);
  await run(process.execPath, ['readme-example.mjs'], {
    cwd: rankProject,
    env: { ...process.env, TMPDIR: exampleTmp },
  });
});

await check('@docs/rank alone: type-checks and runs from TypeScript', async () => {
  for (const file of ['rank.ts', 'tsconfig.json'])
    cpSync(path.join(fixtures, 'rank-consumer', file), path.join(rankProject, file));
  await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: rankProject });
  const { stdout } = await run(process.execPath, ['build/rank.js'], { cwd: rankProject });
  return `strict tsc, NodeNext: ${stdout.trim()}`;
});

// ─── The CLI from the registry ───────────────────────────────────────────────

const cliProject = path.join(work, 'cli');
const home = path.join(work, 'home');
const docs = path.join(cliProject, 'node_modules/.bin/docs');
const docsEnv = { ...userEnv(), DOCS_HOME: home };

await check('@docs/cli: npm install of the packed tarballs into a new project', async () => {
  mkdirSync(cliProject);
  writeFileSync(
    path.join(cliProject, 'package.json'),
    `${JSON.stringify({ name: 'cli-user', private: true }, null, 2)}\n`,
  );
  const tarballs = publishableNames.map((name) => tarballOf(name).file);
  // Third-party dependencies come from the registry; better-sqlite3 compiles where no prebuilt binary downloads,
  // with Node's headers where the README's line points node-gyp (no download of them either).
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const nodedir = /^export npm_config_nodedir="\$\(node -p '([^']+)'\)"$/m.exec(readme)?.[1];
  assert(nodedir, 'the README has no export npm_config_nodedir="$(node -p \'…\')" line');
  const { stdout: headers } = await run(process.execPath, ['-p', nodedir]);
  await run('npm', ['install', ...tarballs], {
    cwd: cliProject,
    env: userEnv({ npm_config_build_from_source: 'true', npm_config_nodedir: headers.trim() }),
    timeout: INSTALL_TIMEOUT_MS,
  });
  const lock = readJson(path.join(cliProject, 'package-lock.json'));
  for (const name of publishableNames) {
    const entries = Object.entries(lock.packages).filter(([where]) => where.endsWith(`node_modules/${name}`));
    assert(entries.length === 1, `${name} is installed ${entries.length} times`);
    const [, entry] = entries[0];
    assert(entry.version === tarballOf(name).manifest.version, `${name}@${entry.version} is not the packed version`);
    assert(String(entry.resolved).startsWith('file:'), `${name} came from ${entry.resolved}, not its tarball`);
  }
  const count = Object.keys(lock.packages).length - 1;
  return `${count} packages; every @docs/* package from its tarball, once`;
});

await check('@docs/cli: npx -y @docs/cli --version (as the README says) prints the released version', async () => {
  // Named by its package: a bare `npx docs` runs the unrelated npm package "docs" wherever this install is missing.
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  assert(/^npx -y @docs\/cli --version$/m.test(readme), 'the README has no "npx -y @docs/cli --version" line');
  const bare = readme.split('\n').filter((line) => /^\s*npx docs\b/.test(line) || /(?<!a bare )`npx docs\b/.test(line));
  assert(bare.length === 0, `the README suggests a bare npx docs: ${bare.join(' | ')}`);
  const { stdout } = await run('npx', ['-y', '@docs/cli', '--version'], { cwd: cliProject, env: docsEnv });
  const version = tarballOf('@docs/cli').manifest.version;
  assert(stdout.trim() === version, `printed "${stdout.trim()}", expected ${version}`);
  return `docs ${version}`;
});

await check('@docs/cli: docs add builds and installs a package', async () => {
  const { stdout } = await run(
    docs,
    ['add', path.join(fixtures, 'widget'), '--name', 'widget', '--version', '1.2.3', '--json'],
    {
      cwd: cliProject,
      env: docsEnv,
    },
  );
  const result = JSON.parse(stdout);
  assert(result.library === 'widget@1.2.3', `added ${result.library}`);
  assert(existsSync(path.join(home, 'widget@1.2.3.db')), `no widget@1.2.3.db in the store: ${stdout}`);
  return `${result.library}: ${result.documents} documents, ${result.chunks} sections`;
});

await check('@docs/cli: docs sync builds an API page with the TypeScript compiler it installed', async () => {
  // A project whose one dependency ships only declarations: the API page needs `typescript`, loaded on demand by the
  // installed @docs/sources, so a dependency missing from its manifest fails here and nowhere else.
  const project = path.join(work, 'typed-project');
  const typed = path.join(project, 'node_modules', 'typed');
  mkdirSync(typed, { recursive: true });
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'typed-user', dependencies: { typed: '1' } }),
  );
  writeFileSync(
    path.join(typed, 'package.json'),
    JSON.stringify({ name: 'typed', version: '1.0.0', types: 'index.d.ts' }),
  );
  writeFileSync(
    path.join(typed, 'index.d.ts'),
    '/** Frobnicates the widget. */\nexport declare function frobnicate(): void;\n',
  );
  const { stdout } = await run(docs, ['sync', project, '--json'], { cwd: cliProject, env: docsEnv });
  const result = JSON.parse(stdout);
  assert(result.built?.[0]?.library === 'typed@1.0.0', `sync: ${stdout.slice(0, 300)}`);
  const page = await run(docs, ['read', 'typed', 'api/index.md'], { cwd: cliProject, env: docsEnv });
  assert(page.stdout.includes("import { frobnicate } from 'typed'"), `api/index.md: ${page.stdout.slice(0, 300)}`);
  return `typed@1.0.0: ${result.built[0].documents} documents`;
});

await check('@docs/cli: docs search answers from the package', async () => {
  const { stdout } = await run(docs, ['search', 'dispose', 'a', 'widget', '--json'], { cwd: cliProject, env: docsEnv });
  const response = JSON.parse(stdout);
  const top = response.results?.[0];
  assert(response.status === 'ok' && top, `no results: ${response.message}`);
  assert(top.library === 'widget@1.2.3' && /dispose/i.test(top.content), `top result is ${top.library} ${top.path}`);
  return `${top.library} ${top.path} > ${top.breadcrumb.join(' > ')}`;
});

await check('@docs/cli: npx -y @docs/cli serve answers an MCP tools/call over stdio', async () => {
  // The line an agent host runs. npx finds the package installed here (the registry would serve the same tarball) and
  // runs its only bin, "docs", although the package is named "cli".
  const client = startStdioClient('npx', ['-y', '@docs/cli', 'serve'], { env: docsEnv, cwd: cliProject });
  try {
    const init = await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'release-check', version: '0.0.0' },
    });
    assert(init.serverInfo?.name === 'docs', `serverInfo: ${JSON.stringify(init.serverInfo)}`);
    client.notify('notifications/initialized');
    const { tools } = await client.request('tools/list');
    const names = tools.map((t) => t.name).sort();
    assert(names.join() === 'get_docs,list_libraries,read_doc,search_all', `tools: ${names.join(', ')}`);
    const result = await client.request('tools/call', {
      name: 'search_all',
      arguments: { topic: 'mount a widget twice', tokens: 500 },
    });
    // The first result's header in the text, all the server sends: `## widget@1.2.3 · headings · path (score …)`.
    const text = result.content?.map((c) => c.text).join('\n') ?? '';
    const top = /^## (\S+) · (.*) · (\S+) \(score/m.exec(text);
    assert(!result.isError && top?.[1] === 'widget@1.2.3', `search_all: ${JSON.stringify(result).slice(0, 300)}`);
    assert(client.stray.length === 0, `stdout carried non-JSON-RPC lines: ${client.stray.join(' | ')}`);
    const code = await client.end();
    assert(code === 0, `the server exited with ${code} when stdin closed; stderr: ${client.stderr()}`);
    return `server ${init.serverInfo.version}, search_all → ${top[3]} > ${top[2]}`;
  } finally {
    await client.end();
  }
});

await check(
  '@docs/cli: docs setup claude-code writes a .mcp.json whose server starts and lists its tools',
  async () => {
    // As the README says to run it; the server must be this install, by absolute path, never a name npx looks up.
    const { stdout } = await run('npx', ['-y', '@docs/cli', 'setup', 'claude-code', '--json'], {
      cwd: cliProject,
      env: docsEnv,
    });
    assert(JSON.parse(stdout).written === true, `setup: ${stdout.slice(0, 300)}`);
    const { command, args, env } = readJson(path.join(cliProject, '.mcp.json')).mcpServers.docs;
    assert(command === process.execPath, `command ${command}, not this Node`);
    assert(path.isAbsolute(args[0]) && args[0].startsWith(cliProject), `the bin ${args[0]} is not this install's`);
    const client = startStdioClient(command, args, { env: { ...userEnv(), ...env }, cwd: cliProject });
    try {
      await client.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'release-check', version: '0.0.0' },
      });
      client.notify('notifications/initialized');
      const { tools } = await client.request('tools/list');
      const names = tools.map((t) => t.name).sort();
      assert(names.join() === 'get_docs,list_libraries,read_doc,search_all', `tools: ${names.join(', ')}`);
      return `${path.relative(cliProject, args[0])} serve, ${names.length} tools`;
    } finally {
      await client.end();
    }
  },
);

for (const name of publishableNames.filter((n) => n !== '@docs/rank')) {
  await check(`${name}: its README example runs against the installed tarballs`, async () => {
    const readme = readFileSync(path.join(tarballOf(name).dir, 'README.md'), 'utf8');
    const example = exampleOf(readme, 'js');
    if (!example) {
      assert(exampleOf(readme, 'sh'), 'the README has neither a ```js nor a ```sh example');
      return 'shell example; its commands are the checks above';
    }
    const file = `readme-${name.split('/')[1]}.mjs`;
    writeFileSync(path.join(cliProject, file), example);
    await run(process.execPath, [file], { cwd: cliProject, env: { ...docsEnv, TMPDIR: exampleTmp }, timeout: 60_000 });
  });
}

if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
