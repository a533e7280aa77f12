import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectDependencies } from '../dependencies.js';
import { findCargoDependencies } from './cargo-dependencies.js';

let dir: string;
let home: string;

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

const crate = (name: string, version: string, description = `${name} does things`) =>
  `[package]\nname = "${name}"\nversion = "${version}"\ndescription = "${description}"\n`;
const REGISTRY = 'registry/src/index.crates.io-0123456789abcdef';
const SOURCE = 'registry+https://github.com/rust-lang/crates.io-index';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cargo-test-'));
  home = path.join(dir, 'cargo-home');
  await write(home, {
    [`${REGISTRY}/serde-1.0.217/Cargo.toml`]: crate('serde', '1.0.217', 'A generic serialization framework'),
    [`${REGISTRY}/serde_json-1.0.135/Cargo.toml`]: crate('serde_json', '1.0.135'),
    [`${REGISTRY}/rand-0.8.5/Cargo.toml`]: crate('rand', '0.8.5'),
    [`${REGISTRY}/rand-0.9.0/Cargo.toml`]: crate('rand', '0.9.0'),
    [`${REGISTRY}/tempfile-3.10.0/Cargo.toml`]: crate('tempfile', '3.10.0'),
    'git/checkouts/shiny-abcdef0123456789/1a2b3c4/crates/shiny/Cargo.toml': crate('shiny', '0.1.0'),
  });
  // A workspace: the root package and two members; `json` renames serde_json; `util` is the workspace's own.
  await write(path.join(dir, 'ws'), {
    'Cargo.toml': `[package]
name = "app"
version = "0.1.0"

[workspace]
members = ["crates/*"]
exclude = ["crates/ignored"]

[workspace.dependencies]
serde = { version = "1", features = ["derive"] }

[dependencies]
serde = { workspace = true }
json = { package = "serde_json", version = "1" }
util = { path = "crates/util" }
shiny = { git = "https://example.invalid/shiny" }

[target.'cfg(unix)'.dependencies]
missing = "2"

[dev-dependencies]
tempfile = "3"
`,
    'crates/util/Cargo.toml': `[package]
name = "util"
version = "0.1.0"

[dependencies]
rand = "0.8"
serde.workspace = true
`,
    'crates/cli/Cargo.toml': `[package]
name = "cli"
version = "0.1.0"

[dependencies]
rand = "0.9"
`,
    'crates/ignored/Cargo.toml': '[package]\nname = "ignored"\nversion = "0.1.0"\n[dependencies]\nnever = "1"\n',
    'Cargo.lock': `version = 4

[[package]]
name = "app"
version = "0.1.0"
dependencies = ["missing", "serde", "serde_json", "shiny", "tempfile", "util"]

[[package]]
name = "cli"
version = "0.1.0"
dependencies = ["rand 0.9.0"]

[[package]]
name = "missing"
version = "2.0.1"
source = "${SOURCE}"

[[package]]
name = "rand"
version = "0.8.5"
source = "${SOURCE}"

[[package]]
name = "rand"
version = "0.9.0"
source = "${SOURCE}"

[[package]]
name = "serde"
version = "1.0.217"
source = "${SOURCE}"

[[package]]
name = "serde_json"
version = "1.0.135"
source = "${SOURCE}"

[[package]]
name = "shiny"
version = "0.1.0"
source = "git+https://example.invalid/shiny#1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"

[[package]]
name = "tempfile"
version = "3.10.0"
source = "${SOURCE}"

[[package]]
name = "util"
version = "0.1.0"
dependencies = ["rand 0.8.5", "serde"]
`,
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('findCargoDependencies', () => {
  it('reads each member, undoes renames, takes versions from Cargo.lock and sources from the registry cache', async () => {
    const found = await findCargoDependencies(path.join(dir, 'ws'), { cargoHome: home });
    expect(found.installed.map((d) => `${d.name}@${d.version}`)).toEqual([
      'rand@0.8.5',
      'rand@0.9.0',
      'serde@1.0.217',
      'serde_json@1.0.135',
      'shiny@0.1.0',
    ]);
    const serde = found.installed.find((d) => d.name === 'serde');
    expect(serde).toMatchObject({
      ecosystem: 'rust',
      dev: false,
      description: 'A generic serialization framework',
      dir: path.join(home, REGISTRY, 'serde-1.0.217'),
      usedBy: ['.', 'crates/util'],
    });
    expect(found.installed.find((d) => d.name === 'shiny')?.dir).toBe(
      path.join(home, 'git/checkouts/shiny-abcdef0123456789/1a2b3c4/crates/shiny'),
    );
    expect(found.packages.map((p) => p.path)).toEqual(['.', 'crates/cli', 'crates/util']);
    expect(found.workspaceFile).toBe(path.join(dir, 'ws', 'Cargo.toml'));
    expect(found.skipped).toEqual([
      { name: 'util', reason: "a path dependency: the workspace's own code, not a fetched crate" },
      { name: 'missing', version: '2.0.1', reason: 'not fetched (run `cargo fetch` in the project)' },
    ]);
  });

  it('adds dev-dependencies with dev, and keeps to the members a filter picks', async () => {
    const found = await findCargoDependencies(path.join(dir, 'ws'), { cargoHome: home, dev: true, filter: ['.'] });
    expect(found.installed.map((d) => `${d.name}@${d.version}${d.dev ? ' (dev)' : ''}`)).toEqual([
      'serde@1.0.217',
      'serde_json@1.0.135',
      'shiny@0.1.0',
      'tempfile@3.10.0 (dev)',
    ]);
  });

  it('prefers the project’s vendor/ copy, and says what to run without a lockfile', async () => {
    await write(path.join(dir, 'vendored'), {
      'Cargo.toml': '[package]\nname = "v"\nversion = "0.1.0"\n[dependencies]\nserde = "1"\n',
      'Cargo.lock': `version = 4\n[[package]]\nname = "serde"\nversion = "1.0.217"\nsource = "${SOURCE}"\n`,
      'vendor/serde/Cargo.toml': crate('serde', '1.0.217', 'vendored'),
    });
    const vendored = await findCargoDependencies(path.join(dir, 'vendored'), { cargoHome: home });
    expect(vendored.installed.map((d) => [d.dir, d.description])).toEqual([
      [path.join(dir, 'vendored', 'vendor', 'serde'), 'vendored'],
    ]);
    await write(path.join(dir, 'unlocked'), {
      'Cargo.toml': '[package]\nname = "u"\nversion = "0.1.0"\n[dependencies]\nserde = "1"\n',
    });
    const unlocked = await findCargoDependencies(path.join(dir, 'unlocked'), { cargoHome: home });
    expect(unlocked.installed).toEqual([]);
    expect(unlocked.skipped).toEqual([
      { name: 'serde', reason: 'no Cargo.lock (run `cargo generate-lockfile` or `cargo fetch`)' },
    ]);
  });

  it('never leaves the registry for a name or version from the lockfile that is a path', async () => {
    await write(path.join(dir, 'hostile'), {
      'Cargo.toml': '[package]\nname = "h"\nversion = "0.1.0"\n[dependencies]\nevil = "1"\n',
      'Cargo.lock': `version = 4\n[[package]]\nname = "evil"\nversion = "../../../ws"\nsource = "${SOURCE}"\n`,
    });
    const found = await findCargoDependencies(path.join(dir, 'hostile'), { cargoHome: home });
    expect(found.installed).toEqual([]);
    expect(found.skipped[0]?.reason).toMatch(/not fetched/);
  });

  it('is what findProjectDependencies answers in a Cargo project, and a manifest that is not TOML throws', async () => {
    const previous = process.env.CARGO_HOME;
    process.env.CARGO_HOME = home;
    try {
      const found = await findProjectDependencies(path.join(dir, 'ws'), { workspaces: false });
      expect(found.installed.map((d) => d.name)).toEqual(['serde', 'serde_json', 'shiny']);
      await write(path.join(dir, 'broken'), { 'Cargo.toml': '[package\nname = ' });
      await expect(findProjectDependencies(path.join(dir, 'broken'))).rejects.toThrow();
      await expect(findProjectDependencies(path.join(dir, 'cargo-home'))).rejects.toThrow(/Cargo\.toml/);
    } finally {
      if (previous === undefined) delete process.env.CARGO_HOME;
      else process.env.CARGO_HOME = previous;
    }
  });
});
