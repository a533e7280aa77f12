import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { goLibraryName, isGoModulePath, parsePackageSpec } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectDependencies } from '../dependencies.js';
import { stageDependencyDocs } from '../dependency-docs.js';
import { installedVersion, installedVersions } from '../project-versions.js';
import { readGoApi } from './doc-helper.js';
import { goOnPath, runGo } from './go-command.js';
import { parseGoMod } from './go-mod.js';
import { escapeModulePath, moduleFolder } from './module-cache.js';

let dir: string;
let cache: string;
let project: string;
const saved = { GOMODCACHE: process.env.GOMODCACHE, GOFLAGS: process.env.GOFLAGS, GOPROXY: process.env.GOPROXY };
const hasGo = await goOnPath();

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

const TOML_GO = `// Package toml reads and writes TOML.
//
// # Decoding
//
// Use [Decode] or a [Decoder]:
//
//	var c Config
//	toml.Decode(text, &c)
package toml

// Decoder reads TOML from a stream.
type Decoder struct {
	// Strict refuses unknown keys.
	Strict bool
	r      int
}

// NewDecoder returns a Decoder reading r.
func NewDecoder(r string) *Decoder { return &Decoder{} }

// Decode reads the stream into v.
func (d *Decoder) Decode(v any) error { return nil }

// Settings returns the options d decodes with.
func (d *Decoder) Settings() Options { return Options{} }

// DecodeWith decodes text with d.
func DecodeWith(d *Decoder, text string) error { return nil }

// DecodeFile reads a file.
//
// Deprecated: use [Decoder.Decode].
func DecodeFile(path string, v any) error { return nil }

// Decode parses text into v.
func Decode(text string, v any) error { return nil }

// Kinds of values.
const (
	String = "string"
	Int    = "int"
)

func unexported() {}
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-go-test-'));
  cache = path.join(dir, 'modcache');
  project = path.join(dir, 'app');
  // Nothing is fetched: go reads this cache only, and would fail rather than download.
  process.env.GOMODCACHE = cache;
  process.env.GOFLAGS = '-mod=mod';
  process.env.GOPROXY = 'off';
  await write(cache, {
    // As the module cache lays it out: capitals escaped, `@version` on the folder.
    'github.com/!burnt!sushi/toml@v1.3.2/go.mod': 'module github.com/BurntSushi/toml\n',
    'github.com/!burnt!sushi/toml@v1.3.2/README.md': '# TOML\n\nTOML for Go, with reflection.\n',
    'github.com/!burnt!sushi/toml@v1.3.2/decode.go': TOML_GO,
    'github.com/!burnt!sushi/toml@v1.3.2/decode_windows.go':
      '//go:build windows\n\npackage toml\n\n// WindowsOnly is not built on linux.\nfunc WindowsOnly() {}\n',
    'github.com/!burnt!sushi/toml@v1.3.2/example_test.go':
      'package toml_test\n\nimport "github.com/BurntSushi/toml"\n\nfunc ExampleDecoder_Decode() {\n\tvar v map[string]any\n\t_ = toml.NewDecoder("a = 1").Decode(&v)\n\t// Output:\n}\n\n// TestHelper is test code, never documented.\nfunc TestHelper() {}\n',
    'github.com/!burnt!sushi/toml@v1.3.2/internal/tz/tz.go':
      '// Package tz is internal.\npackage tz\n\n// Zone is internal.\nfunc Zone() {}\n',
    'github.com/!burnt!sushi/toml@v1.3.2/cmd/tomlv/main.go':
      'package main\n\n// Main is a command.\nfunc Main() {}\nfunc main() {}\n',
    // A struct too long for one section: its fields' docs become a list the index can split.
    'github.com/!burnt!sushi/toml@v1.3.2/options.go': `package toml\n\n// Options tune a Decoder.\ntype Options struct {\n${Array.from(
      { length: 30 },
      (_, i) => `\t// Opt${i} is option number ${i}.\n\tOpt${i} bool\n\n`,
    ).join('')}}\n\n// Apply applies the options.\nfunc (o Options) Apply() {}\n`,
    'github.com/!burnt!sushi/toml@v1.3.2/encoding/encode.go':
      '// Package encoding writes TOML.\npackage encoding\n\n// Encode writes v.\nfunc Encode(v any) ([]byte, error) { return nil, nil }\n',
    'github.com/!burnt!sushi/toml@v1.3.2/docs/guide.md': '# Guide\n\nStruct tags name the keys.\n',
    // pgx's major version suffix, and a module only an indirect requirement brings.
    'github.com/jackc/pgx/v5@v5.7.2/go.mod': 'module github.com/jackc/pgx/v5\n',
    'github.com/jackc/pgx/v5@v5.7.2/conn.go':
      '// Package pgx talks to PostgreSQL.\npackage pgx\n\n// Connect opens a connection.\nfunc Connect(url string) error { return nil }\n',
    'example.com/indirect@v0.1.0/README.md': '# Indirect\n\nPulled in by another module.\n',
    // What `replace example.com/old => example.com/fork v1.1.0` documents instead of example.com/old.
    'example.com/fork@v1.1.0/README.md': '# Fork\n\nThe fork of old.\n',
    'example.com/old@v1.0.0/README.md': '# Old\n\nNot what the project builds.\n',
  });
  await write(project, {
    'go.mod': `module example.com/app

go 1.21

require (
	github.com/BurntSushi/toml v1.3.2
	github.com/jackc/pgx/v5 v5.7.2 // a comment that is not the indirect marker
	example.com/old v1.0.0
	example.com/local v0.0.0
	example.com/missing v1.2.3
	example.com/vendored v0.4.0
	example.com/indirect v0.1.0 // indirect
)

replace example.com/old => example.com/fork v1.1.0

replace "example.com/local" => ../local
`,
    'vendor/modules.txt': '# example.com/vendored v0.4.0\n## explicit\nexample.com/vendored\n',
    'vendor/example.com/vendored/v.go':
      '// Package vendored is read from vendor/.\npackage vendored\n\n// Hello greets.\nfunc Hello() {}\n',
  });
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(dir, { recursive: true, force: true });
});

describe('go.mod', () => {
  const text = `// the app
module "example.com/app"

go 1.21
toolchain go1.21.5

require github.com/a/b v1.0.0
require (
	github.com/c/d v0.2.0 // indirect
	github.com/e/f v3.0.0+incompatible
	"github.com/g/h" v0.0.0-20240101000000-abcdefabcdef // indirect; used by tests
)

exclude github.com/a/b v0.9.0
retract [v1.0.0, v1.0.1]

replace (
	github.com/a/b v1.0.0 => github.com/a/b-fork v1.0.1
	github.com/c/d => ./local/d
)
`;

  it('is read by its grammar: blocks, strings, the indirect marker and replacements', () => {
    expect(parseGoMod(text)).toEqual({
      module: 'example.com/app',
      require: [
        { path: 'github.com/a/b', version: 'v1.0.0', indirect: false },
        { path: 'github.com/c/d', version: 'v0.2.0', indirect: true },
        { path: 'github.com/e/f', version: 'v3.0.0+incompatible', indirect: false },
        { path: 'github.com/g/h', version: 'v0.0.0-20240101000000-abcdefabcdef', indirect: true },
      ],
      replace: [
        { old: { path: 'github.com/a/b', version: 'v1.0.0' }, new: { path: 'github.com/a/b-fork', version: 'v1.0.1' } },
        { old: { path: 'github.com/c/d' }, new: { path: './local/d' } },
      ],
      use: [],
    });
  });

  it.runIf(hasGo)('reads as go mod edit -json reads it', async () => {
    const file = path.join(dir, 'parity.mod');
    await writeFile(file, text);
    const run = await runGo(['mod', 'edit', '-json', file]);
    expect(run.ok).toBe(true);
    const json = JSON.parse(run.ok ? run.stdout : '{}') as {
      Require: Array<{ Path: string; Version: string; Indirect?: boolean }>;
      Replace: Array<{ Old: { Path: string; Version?: string }; New: { Path: string; Version?: string } }>;
    };
    const parsed = parseGoMod(text);
    expect(parsed.require).toEqual(
      json.Require.map((r) => ({ path: r.Path, version: r.Version, indirect: r.Indirect === true })),
    );
    expect(parsed.replace.map((r) => [r.old.path, r.old.version, r.new.path, r.new.version])).toEqual(
      json.Replace.map((r) => [r.Old.Path, r.Old.Version, r.New.Path, r.New.Version]),
    );
  });

  it.each([
    ['require (\n\tgithub.com/a/b v1.0.0\n', 'not closed'],
    ['require github.com/a/b\n', 'module path and a version'],
    ['require "github.com/a/b v1.0.0\n', 'unterminated string'],
    ['replace github.com/a/b v1 v2 v3 => x\n', 'replace wants'],
    ['require `github.com/a/b` v1.0.0\n', 'raw string'],
  ])('refuses %j', (bad, why) => {
    expect(() => parseGoMod(bad)).toThrow(why);
  });
});

describe('module names', () => {
  it.each([
    ['github.com/spf13/cobra', 'cobra'],
    ['github.com/jackc/pgx/v5', 'pgx'],
    ['gopkg.in/yaml.v3', 'yaml'],
    ['github.com/json-iterator/go', 'json-iterator'],
    ['github.com/BurntSushi/toml', 'toml'],
    ['golang.org/x/sync', 'sync'],
    ['github.com/go-playground/validator/v10', 'validator'],
  ])('%s is stored as %s', (modulePath, name) => {
    expect(goLibraryName(modulePath)).toBe(name);
  });

  it('escapes capitals as the module cache does, and refuses paths that would leave it', () => {
    expect(escapeModulePath('github.com/BurntSushi/toml')).toBe('github.com/!burnt!sushi/toml');
    expect(moduleFolder('/c', 'github.com/BurntSushi/toml', 'v1.3.2')).toBe('/c/github.com/!burnt!sushi/toml@v1.3.2');
    expect(moduleFolder('/c', '../../etc', 'v1.0.0')).toBeUndefined();
    expect(moduleFolder('/c', 'example.com/a', '../x')).toBeUndefined();
    expect(isGoModulePath('github.com/spf13/cobra')).toBe(true);
    expect(isGoModulePath('@scope/pkg')).toBe(false);
    expect(isGoModulePath('cobra')).toBe(false);
  });
});

describe('a library named by its module path', () => {
  it.each([
    ['github.com/spf13/cobra', 'cobra', undefined],
    ['github.com/jackc/pgx/v5@v5.7.2', 'pgx', '5.7.2'],
    ['golang.org/x/sync@v0.10.0', 'sync', '0.10.0'],
    ['cobra@1.8.1', 'cobra', '1.8.1'],
    ['@types/node@20.1.0', '@types/node', '20.1.0'],
  ])('%s is %s at %s', (spec, name, version) => {
    expect(parsePackageSpec(spec)).toEqual({ name, version });
  });

  it('answers, for a bare name, the version go.mod requires, from the module or a folder inside it', async () => {
    expect(await installedVersion(project, 'toml')).toBe('1.3.2');
    expect(await installedVersion(path.join(project, 'vendor'), 'pgx')).toBe('5.7.2');
    expect(await installedVersion(project, 'cobra')).toBeUndefined();
    expect(await installedVersions(project, ['toml', 'indirect', 'cobra'])).toEqual(
      new Map([
        ['toml', '1.3.2'],
        ['indirect', '0.1.0'],
      ]),
    );
  });
});

describe('a Go module', () => {
  it('requires what go.mod pins, found in the module cache or vendor/, with replace honoured', async () => {
    const found = await findProjectDependencies(project);
    expect(found.goModReader).toBe(hasGo ? 'go' : 'parser');
    expect(found.installed.map((d) => [d.name, d.version, d.goModule, d.goSource, d.ecosystem])).toEqual([
      ['old', '1.0.0', 'example.com/old', 'example.com/fork@v1.1.0', 'go'],
      ['pgx', '5.7.2', 'github.com/jackc/pgx/v5', 'github.com/jackc/pgx/v5@v5.7.2', 'go'],
      ['toml', '1.3.2', 'github.com/BurntSushi/toml', 'github.com/BurntSushi/toml@v1.3.2', 'go'],
      ['vendored', '0.4.0', 'example.com/vendored', 'example.com/vendored@v0.4.0 (vendor)', 'go'],
    ]);
    expect(found.installed.find((d) => d.name === 'old')?.dir).toBe(path.join(cache, 'example.com', 'fork@v1.1.0'));
    expect(found.installed.find((d) => d.name === 'vendored')?.dir).toBe(
      path.join(project, 'vendor', 'example.com', 'vendored'),
    );
    expect(found.skipped).toEqual([
      { name: 'example.com/local', version: '0.0.0', reason: 'replaced by the folder ../local, not a release' },
      {
        name: 'example.com/missing',
        version: '1.2.3',
        reason: 'not downloaded (run `go mod download example.com/missing@v1.2.3`)',
      },
    ]);
  });

  it('takes the indirect requirements only when asked', async () => {
    const found = await findProjectDependencies(project, { indirect: true });
    expect(found.installed.find((d) => d.goModule === 'example.com/indirect')?.version).toBe('0.1.0');
  });

  it('reads each module of a go.work, applying its replacements, and leaves the workspace modules out', async () => {
    const work = path.join(dir, 'work');
    await write(work, {
      'go.work':
        'go 1.21\n\nuse (\n\t./api\n\t./tools\n)\n\nreplace example.com/old v1.0.0 => example.com/fork v1.1.0\n',
      'api/go.mod':
        'module example.com/api\n\nrequire (\n\tgithub.com/BurntSushi/toml v1.3.2\n\texample.com/tools v0.0.0\n)\n',
      'tools/go.mod':
        'module example.com/tools\n\nrequire (\n\tgithub.com/BurntSushi/toml v1.3.2\n\texample.com/old v1.0.0\n)\n',
    });
    const found = await findProjectDependencies(work);
    expect(found.workspaceFile).toBe(path.join(work, 'go.work'));
    expect(found.installed.map((d) => [d.name, d.goSource, d.usedBy])).toEqual([
      ['old', 'example.com/fork@v1.1.0', ['tools']],
      ['toml', 'github.com/BurntSushi/toml@v1.3.2', ['api', 'tools']],
    ]);
    // --filter picks modules by module path or folder, as it picks packages of a Node workspace.
    const api = await findProjectDependencies(work, { filter: ['example.com/api'] });
    expect(api.installed.map((d) => [d.name, d.usedBy])).toEqual([['toml', ['api']]]);
    await expect(findProjectDependencies(work, { filter: ['nothing'] })).rejects.toThrow(/matches no package/);
  });

  it('is read beside a package.json too, the Node dependencies first', async () => {
    const mixed = path.join(dir, 'mixed');
    await write(mixed, {
      'package.json': JSON.stringify({ name: 'web', dependencies: { left: '^1.0.0' } }),
      'node_modules/left/package.json': JSON.stringify({ name: 'left', version: '1.0.0' }),
      'go.mod': 'module example.com/mixed\n\nrequire github.com/BurntSushi/toml v1.3.2\n',
    });
    const found = await findProjectDependencies(mixed);
    expect(found.installed.map((d) => [d.name, d.version, d.ecosystem])).toEqual([
      ['left', '1.0.0', 'npm'],
      ['toml', '1.3.2', 'go'],
    ]);
    expect(found.goModReader).toBe(hasGo ? 'go' : 'parser');
  });

  it('says which manifests it looks for when the folder has none', async () => {
    const empty = path.join(dir, 'empty');
    await mkdir(empty, { recursive: true });
    await expect(findProjectDependencies(empty)).rejects.toThrow(/go\.mod/);
  });
});

describe.runIf(hasGo)('a Go module staged', () => {
  // go build compiles the reader once into go's build cache: with an empty cache that is ~14 s of CPU (a minute on a
  // busy machine), then a tenth of a second a run. Paid here, once, rather than by whichever test comes first.
  beforeAll(async () => {
    const warm = await readGoApi(path.join(dir, 'app'), 'example.com/app', {
      maxFiles: 1,
      maxBytes: 1,
      timeoutMs: 300_000,
    });
    if (!warm.ok) throw new Error(warm.error);
  }, 300_000);

  it('writes README, docs and an API page per package, as go/doc reads the source', async () => {
    const found = await findProjectDependencies(project);
    const toml = found.installed.find((d) => d.name === 'toml');
    if (!toml) throw new Error('toml not found');
    const staged = await stageDependencyDocs(toml);
    if (!staged.ok) throw new Error(staged.error);
    try {
      const { root, source, description, warnings } = staged.value;
      expect(source).toBe('go:github.com/BurntSushi/toml@v1.3.2');
      expect(description).toBe('github.com/BurntSushi/toml');
      expect(warnings).toEqual([]);
      const index = await readFile(path.join(root, 'api', 'index.md'), 'utf8');
      const decoder = await readFile(path.join(root, 'api', 'Decoder.md'), 'utf8');
      const encoding = await readFile(path.join(root, 'api', 'encoding', 'index.md'), 'utf8');
      expect(await readFile(path.join(root, 'README.md'), 'utf8')).toContain('TOML for Go');
      expect(await readFile(path.join(root, 'docs', 'guide.md'), 'utf8')).toContain('Struct tags');
      // The package doc as go/doc/comment renders it: a heading, a code block, links as their text.
      expect(index).toContain(
        '# github.com/BurntSushi/toml API\n\n## package toml\n\n`import "github.com/BurntSushi/toml"` · package',
      );
      expect(index).toContain('\n### Decoding\n');
      expect(index).toContain('Use Decode or a Decoder:');
      expect(index).toContain('Use Decode or a Decoder:\n\n```\nvar c Config\ntoml.Decode(text, &c)\n```');
      // A deprecated function says so first; constants in their group.
      expect(index).toMatch(
        /## DecodeFile\n\n`import "github\.com\/BurntSushi\/toml"` · func \(decode file\)\n\n```go\nfunc DecodeFile\(path string, v any\) error\n```\n\nDeprecated: use Decoder\.Decode\.\n\nDecodeFile reads a file\./,
      );
      expect(index).toContain('## String, Int\n\n`import "github.com/BurntSushi/toml"` · const\n\n```go\nconst (');
      // A type with methods has its page: the type, its constructor, each method with its example.
      expect(decoder).toContain(
        '## Decoder\n\n`import "github.com/BurntSushi/toml"` · type\n\n```go\ntype Decoder struct {\n\t// Strict refuses unknown keys.\n\tStrict bool',
      );
      expect(decoder).not.toMatch(/\br\s+int/);
      // A name of several words says them, as a question would (the index holds `NewDecoder` as one token).
      expect(decoder).toContain('### NewDecoder\n\nFunction returning `Decoder` (new decoder) ·');
      expect(decoder).toMatch(
        /### Decoder\.Decode\n\nMethod of `Decoder` · `import "github\.com\/BurntSushi\/toml"`\n\n```go\nfunc \(d \*Decoder\) Decode\(v any\) error\n```\n\nDecode reads the stream into v\.\n\nExample:\n\n```go\nvar v map\[string\]any\n_ = toml\.NewDecoder\("a = 1"\)\.Decode\(&v\)/,
      );
      // A signature naming a type with a page of its own links to it, as pkg.go.dev links it; the type a section is
      // on, its receiver or what its constructor returns, is not linked.
      expect(index).toContain(
        '```go\nfunc DecodeWith(d *Decoder, text string) error\n```\n\nSee [`Decoder`](Decoder.md).\n\nDecodeWith decodes',
      );
      expect(decoder).toContain('```go\nfunc (d *Decoder) Settings() Options\n```\n\nSee [`Options`](Options.md).');
      expect(decoder).not.toContain('](Decoder.md)');
      expect(index).not.toMatch(/## Decode\n[^#]*See /);
      expect(encoding).toContain('## Encode');
      const options = await readFile(path.join(root, 'api', 'Options.md'), 'utf8');
      expect(options).toContain('```go\ntype Options struct {\n\tOpt0 bool\n\tOpt1 bool\n');
      expect(options).toContain(
        'Fields:\n\n- `Opt0 bool`: Opt0 is option number 0.\n- `Opt1 bool`: Opt1 is option number 1.\n',
      );
      // Not documented: unexported names, another OS's files, test code, internal packages, commands.
      const all = `${index}${decoder}${encoding}`;
      for (const hidden of ['func unexported', 'WindowsOnly', 'TestHelper', 'Zone', 'Main'])
        expect(all).not.toContain(hidden);
    } finally {
      await staged.value.dispose();
    }
  });

  it('stops at its bounds and says so, keeping what it read', async () => {
    const toml = path.join(cache, 'github.com', '!burnt!sushi', 'toml@v1.3.2');
    const api = await readGoApi(toml, 'github.com/BurntSushi/toml', {
      maxFiles: 1,
      maxBytes: 1 << 20,
      timeoutMs: 60_000,
    });
    if (!api.ok) throw new Error(api.error);
    expect(api.packages.map((p) => p.importPath)).toEqual(['github.com/BurntSushi/toml']);
    expect(api.warnings).toEqual([
      `stopped at 1 Go files, ${TOML_GO.length} bytes: the module is larger than the bounds`,
    ]);
    const none = await readGoApi(path.join(dir, 'no-such-module'), 'example.com/none', {
      maxFiles: 10,
      maxBytes: 1 << 20,
      timeoutMs: 60_000,
    });
    expect(none.ok ? none.warnings.join() : none.error).toMatch(/no-such-module/);
  });

  it('stages a vendored module from vendor/', async () => {
    const found = await findProjectDependencies(project);
    const vendored = found.installed.find((d) => d.name === 'vendored');
    if (!vendored) throw new Error('vendored not found');
    const staged = await stageDependencyDocs(vendored);
    if (!staged.ok) throw new Error(staged.error);
    try {
      expect(await readFile(path.join(staged.value.root, 'api', 'index.md'), 'utf8')).toContain('## Hello');
    } finally {
      await staged.value.dispose();
    }
  });
});
