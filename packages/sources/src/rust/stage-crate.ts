import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstalledDependency } from '../dependencies.js';
import { cleanReadme } from '../readme.js';
import { writePages } from '../staged-parts.js';
import { isTable, readToml } from './cargo-files.js';
import { type CrateLimits, CrateReader } from './crate-reader.js';
import { publicApi } from './public-api.js';
import { rustPages } from './rust-pages.js';
import { rustParser } from './rust-parser.js';

/** What staging a crate wrote, and what fell short. */
export interface StagedCrate {
  readonly files: readonly string[];
  readonly warnings: readonly string[];
}

/** Options for {@link stageCrate}. */
export interface StageCrateOptions extends Partial<CrateLimits> {
  /** Write the API pages read from the crate's source. @default true */
  readonly api?: boolean;
  /** Example programs (`examples/*.rs`) staged as pages, at most. @default 50 */
  readonly maxExamples?: number;
}

const README = /^readme(?:\.(?:md|markdown|txt))?$/i;
const EXAMPLE_BYTES = 64 * 1024;

/**
 * Stages a crate's documentation into `dir`: its README (the one `[package] readme` names, else `README.md` at the top),
 * its example programs (`examples/*.rs`, and the markdown guides some ship there) and its API pages read from its source
 * with tree-sitter (`rustPages`): what docs.rs shows of it, without building it. A crate's build script and macros are
 * never run.
 *
 * @example
 * const staged = await stageCrate(dependency, dir); // → { files: ['README.md', 'api/index.md', …], warnings: [] }
 */
export async function stageCrate(
  dependency: InstalledDependency,
  dir: string,
  options: StageCrateOptions = {},
): Promise<StagedCrate> {
  const files: string[] = [];
  const readme = await readmeOf(dependency.dir);
  if (readme !== undefined) {
    const target = /\.txt$/i.test(readme) ? 'README.txt' : 'README.md';
    const text = await readFile(readme, 'utf8');
    await writeFile(path.join(dir, target), target === 'README.md' ? cleanReadme(text) : text);
    files.push(target);
  }
  files.push(...(await stageExamples(dependency.dir, dir, options.maxExamples ?? 50)));
  if (options.api === false) return { files, warnings: [] };
  const reader = new CrateReader(await rustParser(), {
    maxFiles: options.maxFiles ?? 2000,
    maxBytes: options.maxBytes ?? 32 * 1024 * 1024,
    maxMilliseconds: options.maxMilliseconds ?? 60_000,
  });
  const crate = reader.read(dependency.dir);
  if (crate === undefined) return { files, warnings: [...reader.warnings] };
  const pages = rustPages(publicApi(crate, reader));
  await writePages(dir, pages);
  return { files: [...files, ...pages.map((page) => page.file)], warnings: [...reader.warnings] };
}

/** The README `[package] readme` names (inside the crate), else one at the crate's top. */
async function readmeOf(crateDir: string): Promise<string | undefined> {
  const manifest = await readToml(path.join(crateDir, 'Cargo.toml')).catch(() => undefined);
  const named = isTable(manifest?.package) ? manifest.package.readme : undefined;
  if (typeof named === 'string' && /\.(?:md|markdown|txt)$/i.test(named)) {
    const file = path.resolve(crateDir, named);
    if (file.startsWith(`${crateDir}${path.sep}`) && (await stat(file).catch(() => undefined))?.isFile()) return file;
  }
  const entries = await readdir(crateDir, { withFileTypes: true });
  const found = entries.find((e) => e.isFile() && README.test(e.name));
  return found ? path.join(crateDir, found.name) : undefined;
}

/** `examples/*.rs` as a page each (the program in a `rust` fence under its `//!` docs), and `examples/*.md` as they are. */
async function stageExamples(crateDir: string, dir: string, max: number): Promise<string[]> {
  const source = path.join(crateDir, 'examples');
  const entries = await readdir(source, { withFileTypes: true }).catch(() => []);
  const staged: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (staged.length >= max) break;
    if (!entry.isFile() || !/\.(?:rs|md)$/.test(entry.name)) continue;
    const file = path.join(source, entry.name);
    if (((await stat(file)).size ?? 0) > EXAMPLE_BYTES) continue;
    const text = await readFile(file, 'utf8');
    const target = `examples/${entry.name.replace(/\.rs$/, '.md')}`;
    if (staged.includes(target)) continue;
    const markdown = entry.name.endsWith('.md') ? text : examplePage(entry.name, text);
    await mkdir(path.join(dir, 'examples'), { recursive: true });
    await writeFile(path.join(dir, target), markdown);
    staged.push(target);
  }
  return staged;
}

function examplePage(name: string, program: string): string {
  const lines = program.split('\n');
  const docs: string[] = [];
  while (lines.length > 0 && /^\s*\/\/!/.test(lines[0] ?? ''))
    docs.push((lines.shift() ?? '').replace(/^\s*\/\/! ?/, ''));
  const code = lines.join('\n').trim();
  return `# Example: ${name.replace(/\.rs$/, '')}\n\n${docs.length > 0 ? `${docs.join('\n').trim()}\n\n` : ''}\`\`\`rust\n${code}\n\`\`\`\n`;
}
