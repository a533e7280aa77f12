import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledDependency } from '../dependencies.js';
import { stageDependencyDocs } from '../dependency-docs.js';
import { availabilityText } from './cfg-text.js';
import { rustdocMarkdown } from './rustdoc-markdown.js';
import { stageCrate } from './stage-crate.js';

let dir: string;
let registry: string;

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), content);
  }
}

function crate(name: string, version: string): InstalledDependency {
  return { name, version, dir: path.join(registry, `${name}-${version}`), ecosystem: 'rust', dev: false };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-crate-api-test-'));
  registry = path.join(dir, 'registry', 'src', 'index.crates.io-0123456789abcdef');
  await write(dir, { 'secret.txt': 'TOP SECRET' });
  await write(path.join(registry, 'widget-1.2.0'), {
    'Cargo.toml': `[package]
name = "widget"
version = "1.2.0"
readme = "README.md"

[dependencies]
widget-core = { version = "1.1", package = "widget_core" }
`,
    'README.md': '# widget\n\nWidgets for everyone.\n',
    'examples/hello.rs': '//! Says hello with a widget.\nfn main() {\n    widget::hello();\n}\n',
    'src/lib.rs': `//! Widgets, made simple.
//!
//! Start with [\`Builder\`], a [\`Gear\`](crate::nested::deeper::Gear) or [Turn]; [nothing](crate::missing) is lost.
//!
//! [\`Builder\`]: crate::inner::Builder
//!
//! # Getting started
//!
//! \`\`\`
//! # fn main() {
//! let w = widget::Builder::new().build();
//! # }
//! \`\`\`
#![doc = include_str!("../README.md")]
#![doc = include_str!("../../../../secret.txt")]

#[macro_use]
mod macros;

mod inner;
pub mod nested;
#[path = "strange_name.rs"]
pub mod renamed;
#[path = "../../../../secret.txt"]
mod escape;
#[cfg(test)]
mod tests;

pub use inner::{hello, Builder as WidgetBuilder};
pub use inner::{Builder, Holder};
pub use widget_core::*;

cfg_fancy! {
    /// Makes it fancy.
    pub fn fancy() {}
}

extern "C" {
    /// The absolute value, from C.
    pub fn abs(x: i32) -> i32;
}

/// Old and tired.
#[deprecated(since = "1.1.0", note = "use \`hello\` instead")]
pub fn old() {}

#[doc(hidden)]
pub fn secret_helper() {}

/// The widget's colours.
#[derive(Debug)]
pub enum Colour {
    /// Bright red.
    Red,
    Blue(u8),
}
`,
    'src/macros.rs': `macro_rules! cfg_fancy {
    ($($item:item)*) => {
        $(
            #[cfg(feature = "fancy")]
            #[cfg_attr(docsrs, doc(cfg(feature = "fancy")))]
            $item
        )*
    }
}

/// Makes a widget from parts.
///
/// # Examples
///
/// \`\`\`
/// let w = widget::make!(1, 2);
/// \`\`\`
#[macro_export]
macro_rules! make {
    ($($part:expr),*) => { $crate::Builder::new() };
}
`,
    'src/inner.rs': `/// Says hello.
pub fn hello() -> &'static str { "hello" }

/// Builds widgets.
pub struct Builder {
    /// How many parts.
    pub parts: usize,
    name: String,
}

impl Builder {
    /// A builder with no parts.
    pub fn new() -> Self { Builder { parts: 0, name: String::new() } }

    /// Turns every option on.
    pub fn enable_all(&mut self) -> &mut Self { self }

    fn private_step(&self) {}
}

/// Holds one thing.
pub struct Holder<T>(pub T);

impl<T: Clone> Holder<T> {
    /// Clones it out.
    pub fn take(&self) -> T { self.0.clone() }
}

impl Default for Builder {
    fn default() -> Self { Self::new() }
}
`,
    'src/nested/mod.rs': `//! Nested things.
mod deeper;
pub use self::deeper::{Gear, Turn};
`,
    'src/nested/deeper.rs': `/** A gear. */
pub struct Gear;

/// What turns.
pub trait Turn {
    /// Turns once.
    fn turn(&self) -> u32;
    #[doc(hidden)]
    fn plumbing(&self);
}
`,
    'src/strange_name.rs': '//! Found through #[path].\n\n/// Renamed inside.\npub const LIMIT: u32 = 8;\n',
  });
  await write(path.join(registry, 'widget_core-1.1.5'), {
    'Cargo.toml': '[package]\nname = "widget_core"\nversion = "1.1.5"\n',
    'src/lib.rs':
      '/// Shared by all widgets.\npub trait Part {\n    /// The weight.\n    fn weight(&self) -> u32;\n}\n',
  });
  // A version the requirement (`1.1` is `^1.1`) does not allow: never read.
  await write(path.join(registry, 'widget_core-2.0.0'), {
    'Cargo.toml': '[package]\nname = "widget_core"\nversion = "2.0.0"\n',
    'src/lib.rs': '/// From the wrong version.\npub trait WrongPart {}\n',
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function stage(dependency: InstalledDependency): Promise<{ files: Map<string, string>; source: string }> {
  const staged = await stageDependencyDocs(dependency);
  if (!staged.ok) throw new Error(staged.error);
  try {
    const files = new Map<string, string>();
    const { findDocFiles } = await import('../walk.js');
    for (const file of await findDocFiles(staged.value.root)) {
      files.set(file.relativePath, await readFile(file.absolutePath, 'utf8'));
    }
    return { files, source: staged.value.source };
  } finally {
    await staged.value.dispose();
  }
}

describe('a crate staged from its source', () => {
  it('writes the README, its examples and a page per public module and per type with members', async () => {
    const { files, source } = await stage(crate('widget', '1.2.0'));
    expect(source).toBe('crates:widget@1.2.0');
    expect([...files.keys()].sort()).toEqual([
      'README.md',
      'api/Builder.md',
      'api/Colour.md',
      'api/Holder.md',
      'api/Part.md',
      'api/index.md',
      'api/nested/Turn.md',
      'api/nested/index.md',
      'api/renamed/index.md',
      'examples/hello.md',
    ]);
    expect(files.get('examples/hello.md')).toContain('Says hello with a widget.\n\n```rust\nfn main()');
  });

  it('documents items at the path users import them by, with signatures, docs and features', async () => {
    const { files } = await stage(crate('widget', '1.2.0'));
    const index = files.get('api/index.md') ?? '';
    // Crate docs first, their headings under the page's, rustdoc's hidden lines left out; include_str! within the crate.
    // Intra-doc links point at the pages of the items they name, however the path is written; others keep their text.
    expect(index).toContain('Start with [`Builder`], a [`Gear`](nested/index.md) or [Turn]; nothing is lost.');
    expect(index).toContain('[`Builder`]: Builder.md');
    expect(index).toContain('[Turn]: nested/Turn.md');
    expect(index).toMatch(
      /^# widget\n\nWidgets, made simple\.\n\nStart with[^\n]*\n\n\[`Builder`\]: Builder\.md\n\n## Getting started\n\n```rust\nlet w = widget::Builder::new\(\)\.build\(\);\n```/,
    );
    expect(index).toContain('Widgets for everyone.');
    expect(index).not.toContain('TOP SECRET');
    // A function defined in a private module, documented where it is re-exported.
    expect(index).toContain(
      "## hello\n\n`use widget::hello;` · function\n\n```rust\npub fn hello() -> &'static str\n```\n\nSays hello.",
    );
    expect(index).toContain('## fancy\n\n`use widget::fancy;` · function · Available on crate feature `fancy` only.');
    expect(index).toContain('## old\n\n`use widget::old;` · function\n\nDeprecated since 1.1.0: use `hello` instead.');
    expect(index).toContain('## make!\n\n`use widget::make;` · macro\n\n```rust\nmacro_rules! make {');
    expect(index).toContain('### Examples');
    expect(index).not.toContain('secret_helper');
    expect(index).toContain(
      '## abs\n\n`use widget::abs;` · function\n\n```rust\npub fn abs(x: i32) -> i32\n```\n\nThe absolute value, from C.',
    );
    const builder = files.get('api/Builder.md') ?? '';
    expect(builder).toContain('## Builder\n\n`use widget::Builder;` · struct');
    expect(builder).toContain('pub struct Builder {\n    pub parts: usize,\n    /* private fields */\n}');
    expect(builder).toContain('- `pub parts: usize`: How many parts.');
    expect(builder).toContain('impl Default for Builder');
    expect(builder).toContain(
      '### Builder::enable_all\n\nMethod of `Builder` · `use widget::Builder;`\n\n```rust\npub fn enable_all(&mut self) -> &mut Self\n```\n\nTurns every option on.',
    );
    expect(builder).not.toContain('private_step');
    // A method under an impl with generics shows that header above its signature, as rustdoc does.
    expect(files.get('api/Holder.md')).toContain('```rust\nimpl<T: Clone> Holder<T>\npub fn take(&self) -> T\n```');
    expect(files.get('api/Colour.md')).toContain('- `Red`: Bright red.\n- `Blue(u8)`');
  });

  it('resolves mod files as rustc does, and re-exports from a dependency at the version its requirement allows', async () => {
    const { files } = await stage(crate('widget', '1.2.0'));
    expect(files.get('api/nested/index.md')).toContain(
      '# widget::nested\n\n`use widget::nested;` · module\n\nNested things.',
    );
    expect(files.get('api/nested/index.md')).toContain('## Gear\n\n`use widget::nested::Gear;` · struct');
    expect(files.get('api/nested/index.md')).toContain('A gear.');
    expect(files.get('api/nested/Turn.md')).not.toContain('plumbing');
    expect(files.get('api/nested/Turn.md')).toContain(
      '### Turn::turn\n\nMethod of `Turn` · `use widget::nested::Turn;`',
    );
    expect(files.get('api/renamed/index.md')).toContain('## LIMIT\n\n`use widget::renamed::LIMIT;` · constant');
    expect(files.get('api/Part.md')).toContain('## Part\n\n`use widget::Part;` · trait');
    expect([...files.values()].join('\n')).not.toContain('WrongPart');
  });
});

describe('what falls short is said', () => {
  it('a binary-only crate stages its README, and says it has no library to document', async () => {
    await write(path.join(registry, 'tool-0.1.0'), {
      'Cargo.toml': '[package]\nname = "tool"\nversion = "0.1.0"\n',
      'README.md': '# tool\n\nA command.\n',
      'src/main.rs': 'fn main() {}\n',
    });
    const staged = await stageDependencyDocs(crate('tool', '0.1.0'));
    if (!staged.ok) throw new Error(staged.error);
    try {
      expect(staged.value.warnings).toEqual(['no API pages for tool: no library source at src/lib.rs']);
      expect(await readFile(path.join(staged.value.root, 'README.md'), 'utf8')).toContain('A command.');
    } finally {
      await staged.value.dispose();
    }
  });

  it('stops reading a crate at its limits, with a warning, and writes what it read', async () => {
    const out = await mkdtemp(path.join(dir, 'out-'));
    const staged = await stageCrate(crate('widget', '1.2.0'), out, { maxFiles: 2 });
    expect(staged.warnings).toEqual(['the API pages stop at 2 source files or 33554432 bytes']);
    expect(staged.files).toContain('api/index.md');
    expect(await readFile(path.join(out, 'api', 'index.md'), 'utf8')).toContain('Widgets, made simple.');
  });
});

describe('a crate that takes too long', () => {
  it('is read only within its time budget, and says so', async () => {
    const out = await mkdtemp(path.join(dir, 'slow-'));
    const staged = await stageCrate(crate('widget', '1.2.0'), out, { maxMilliseconds: 0 });
    expect(staged.warnings).toEqual(["the API pages stop after 0 s of reading the crate's source"]);
    expect(staged.files).toEqual(['README.md', 'examples/hello.md']);
  });
});

describe('availabilityText', () => {
  it.each([
    [['feature = "rt"'], 'Available on crate feature `rt` only.'],
    [
      ['feature = "rt"', 'feature = "rt-multi-thread"'],
      'Available on crate feature `rt` and crate feature `rt-multi-thread` only.',
    ],
    [['all(unix, feature = "net")'], 'Available on Unix and crate feature `net` only.'],
    [['any(feature = "net", feature = "fs")'], 'Available on crate features `net` or `fs` only.'],
    [['all(feature = "rt")'], 'Available on crate feature `rt` only.'],
    [['not(windows)'], 'Available on non-Windows only.'],
    [['any(target_os = "linux", target_os = "android",)'], 'Available on Linux or Android only.'],
    [['all(tokio_unstable, any(unix, windows))'], 'Available on `tokio_unstable` and (Unix or Windows) only.'],
    [['feature = '], 'Available on `cfg(feature = )` only.'],
    [[], ''],
  ])('%j', (conditions, expected) => {
    expect(availabilityText(conditions)).toBe(expected);
  });
});

describe('rustdocMarkdown', () => {
  it.each([
    ['moves headings under the section', '# Examples\n\ntext', 2, '### Examples\n\ntext'],
    [
      'marks bare and rustdoc fences as rust and drops hidden lines',
      '```no_run\n# use a;\nrun();\n## not hidden\n```',
      1,
      '```rust\nrun();\n# not hidden\n```',
    ],
    ['keeps other languages as they are', '```toml\n# a comment\n[x]\n```', 1, '```toml\n# a comment\n[x]\n```'],
    [
      'drops link definitions to Rust paths, keeps web links',
      '[a]: crate::a\n[b]: https://b.example/',
      1,
      '[b]: https://b.example/',
    ],
    ['leaves headings inside fences alone', '```text\n# not a heading\n```', 2, '```text\n# not a heading\n```'],
  ])('%s', (_, doc, level, expected) => {
    expect(rustdocMarkdown(doc, level)).toBe(expected);
  });
});
