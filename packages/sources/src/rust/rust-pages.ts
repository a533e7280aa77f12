import type { ApiPage } from '../api/index.js';
import { uniquePageFile } from '../staged-parts.js';
import { availabilityText } from './cfg-text.js';
import { IntraDocLinks } from './intra-doc-links.js';
import type { PublicApi, PublicItem, PublicModule } from './public-api.js';
import { rustdocMarkdown } from './rustdoc-markdown.js';
import type { ItemSyntax, Member } from './syntax.js';

// Trait impls listed on a type's section at most; Value's hundred `From` impls say little more than the first ones.
const TRAIT_IMPLS_LISTED = 40;

/**
 * A crate's public API as markdown pages, laid out as the npm API pages are (`api/markdown.ts`) and as rustdoc groups
 * them: a page per public module (`api/index.md` for the crate root, `api/task/index.md` for `tokio::task`) titled by
 * its path and opening with its `//!` docs, holding a `##` section per function, macro, constant and type alias; a type
 * with methods, fields, variants or trait items gets a page of its own (`api/task/JoinHandle.md`), a `##` section for
 * the type and a `###` per method (`JoinHandle::abort`). Each section opens with how to import it (`use
 * tokio::task::spawn_blocking;`) and its kind, the cargo features it needs, a deprecation first, then its signature in a
 * `rust` fence and its doc comment.
 *
 * @example
 * rustPages(api).map((p) => p.file); // → ['api/index.md', 'api/task/index.md', 'api/task/JoinHandle.md', …]
 */
export function rustPages(api: PublicApi): ApiPage[] {
  const byModule = new Map<string, { module: PublicModule; loose: PublicItem[]; own: PublicItem[] }>();
  for (const module of api.modules) byModule.set(module.path.join('::'), { module, loose: [], own: [] });
  for (const item of api.items) {
    const group = byModule.get(item.path.slice(0, -1).join('::'));
    if (group === undefined) continue;
    if (hasMembers(item)) group.own.push(item);
    else group.loose.push(item);
  }
  // Where every page goes, and which item is on which, before any is written: a doc links to items on others.
  const crate = api.modules[0]?.path[0] ?? '';
  const links = new IntraDocLinks();
  const taken = new Set<string>();
  const planned: { file: string; importPath: string; render: (link: Linker) => string[] }[] = [];
  for (const { module, loose, own } of byModule.values()) {
    const folder = ['api', ...module.path.slice(1)].join('/');
    const importPath = module.path.join('::');
    if (module.doc !== '' || module.deprecated !== undefined || loose.length > 0) {
      const file = uniquePageFile(taken, folder, 'index');
      links.add(module.path.slice(1), file);
      for (const item of loose) links.add(item.path.slice(1), file);
      planned.push({
        file,
        importPath,
        render: (link) => [
          `# ${importPath}`,
          moduleIntro(module, link),
          ...loose.map((item) => itemSection(item, 2, link)),
        ],
      });
    }
    for (const item of own) {
      const file = uniquePageFile(taken, folder, item.item.name);
      links.add(item.path.slice(1), file);
      for (const member of [...(item.item.members ?? []), ...item.methods])
        links.add([...item.path.slice(1), member.name], file);
      planned.push({
        file,
        importPath,
        render: (link) => [`# ${importPath}`, itemSection(item, 2, link), ...memberSections(item, link)],
      });
    }
  }
  return planned.map(({ file, importPath, render }) => {
    const link: Linker = (target) => links.resolve(target, file, crate);
    const sections = render(link).filter((section) => section !== '');
    return { file, importPath, markdown: `${sections.join('\n\n')}\n` };
  });
}

/** Resolves an intra-doc link's target to a link from the page being written. */
type Linker = (target: string) => string | undefined;

function hasMembers(item: PublicItem): boolean {
  return (
    item.methods.length > 0 ||
    (item.item.members?.length ?? 0) > 0 ||
    (item.item.fields?.length ?? 0) > 0 ||
    (item.item.variants?.length ?? 0) > 0
  );
}

function moduleIntro(module: PublicModule, link: Linker): string {
  const parts: string[] = [];
  const isRoot = module.path.length === 1;
  const facts = [isRoot ? 'crate' : `\`use ${module.path.join('::')};\` · module`, availabilityText(module.cfg)].filter(
    (f) => f !== '',
  );
  if (!isRoot || facts.length > 1) parts.push(facts.join(' · '));
  if (module.deprecated !== undefined) parts.push(deprecation(module.deprecated));
  if (module.doc !== '') parts.push(rustdocMarkdown(module.doc, 1, link));
  return parts.join('\n\n');
}

function itemSection(entry: PublicItem, level: number, link: Linker): string {
  const { item } = entry;
  const isMacro = item.kind === 'macro';
  const heading = `${'#'.repeat(level)} ${item.name}${isMacro ? '!' : ''}`;
  const facts = [`\`use ${entry.path.join('::')};\``, item.kind, availabilityText(entry.cfg)].filter((f) => f !== '');
  const parts = [heading, facts.join(' · ')];
  if (item.deprecated !== undefined) parts.push(deprecation(item.deprecated));
  parts.push(fence(item.signature));
  if (item.doc !== '') parts.push(rustdocMarkdown(item.doc, level, link));
  if (item.fields?.length) parts.push(memberList('Fields', item.fields));
  if (item.variants?.length) parts.push(memberList('Variants', item.variants));
  if (entry.traitImpls.length > 0) {
    const listed = entry.traitImpls.slice(0, TRAIT_IMPLS_LISTED);
    const more = entry.traitImpls.length - listed.length;
    parts.push(
      `Trait implementations:\n\n${fence([...listed, ...(more > 0 ? [`// … and ${more} more`] : [])].join('\n'))}`,
    );
  }
  return parts.join('\n\n');
}

/** A type's methods, and a trait's associated items, each a `###` section named `Type::method`. */
function memberSections(entry: PublicItem, link: Linker): string[] {
  const owner = entry.item.name;
  const members = [...(entry.item.members ?? []), ...entry.methods];
  const seen = new Set<string>();
  return members.flatMap((member) => {
    // Two impl blocks under different cfgs may define one method twice: the first is documented.
    if (seen.has(member.name)) return [];
    seen.add(member.name);
    return [memberSection(owner, entry, member, link)];
  });
}

function memberSection(owner: string, entry: PublicItem, member: ItemSyntax, link: Linker): string {
  const facts = [
    `${capitalised(member.kind)} of \`${owner}\``,
    `\`use ${entry.path.join('::')};\``,
    availabilityText(member.cfg.filter((c) => !entry.cfg.includes(c))),
  ].filter((f) => f !== '');
  const parts = [`### ${owner}::${member.name}`, facts.join(' · ')];
  if (member.deprecated !== undefined) parts.push(deprecation(member.deprecated));
  parts.push(fence(member.within === undefined ? member.signature : `${member.within}\n${member.signature}`));
  if (member.doc !== '') parts.push(rustdocMarkdown(member.doc, 3, link));
  return parts.join('\n\n');
}

function memberList(title: string, members: readonly Member[]): string {
  const lines = members.map((m) => {
    const doc = m.doc.replace(/\s+/g, ' ').trim();
    return `- \`${m.text}\`${doc === '' ? '' : `: ${doc}`}`;
  });
  return `${title}:\n\n${lines.join('\n')}`;
}

function deprecation(note: string): string {
  if (note === '') return 'Deprecated.';
  return `Deprecated${note.startsWith('since ') ? ' ' : ': '}${note}${/[.!?]$/.test(note) ? '' : '.'}`;
}

function fence(code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}rust\n${code}\n${marker}`;
}

function capitalised(word: string): string {
  return `${word.charAt(0).toUpperCase()}${word.slice(1)}`;
}
