import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type TypeScript from 'typescript';

/** A doc comment as the API pages write it: its text and its tags (a `@param`'s text starts with its name). */
export interface DocComment {
  readonly doc: string;
  readonly tags: readonly { readonly name: string; readonly text: string }[];
}

/** Bounds on the shipped sources read for one package's comments. */
export interface SourceLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** Enough for rxjs (about 250 source files, 2 MB), not a whole monorepo's. */
export const SOURCE_LIMITS: SourceLimits = { maxFiles: 400, maxBytes: 6 * 1024 * 1024 };

/**
 * The doc comments a package's declaration files lost: TypeScript writes an
 * overloaded function's overloads to its `.d.ts` and drops the implementation,
 * and with it the comment written above it, which is where a library that
 * documents overloads one by one (rxjs's `forkJoin`, `firstValueFrom`, `map`)
 * writes what the function does. A package that ships its TypeScript sources
 * with declaration maps (`forkJoin.d.ts.map` naming `src/…/forkJoin.ts`) still
 * has that comment: the map says which source a declaration file was made
 * from, and the source, parsed (never run), holds the implementation.
 *
 * Only files of the package itself are read (`isOwnFile`, on real paths, so
 * neither a map nor a symlink leads out of it), within `limits`; each source is
 * parsed once.
 */
export class ImplementationComments {
  private readonly parsed = new Map<string, TypeScript.SourceFile | undefined>();
  /** Each declaration file's sources, read once: its map is read once, whatever the number of its overloads. */
  private readonly sources = new Map<string, TypeScript.SourceFile[]>();
  private files = 0;
  private bytes = 0;

  constructor(
    private readonly ts: typeof TypeScript,
    private readonly isOwnFile: (fileName: string) => boolean,
    private readonly limits: SourceLimits = SOURCE_LIMITS,
    private readonly warn: (warning: string) => void = () => undefined,
  ) {}

  /**
   * The comment of the implementation behind a function's or method's bodiless declarations (its overloads, in a
   * declaration file), or undefined when there is none to read: not such a declaration, no declaration map, no
   * shipped source, no implementation there, or one without a comment.
   */
  of(declarations: readonly TypeScript.Declaration[]): DocComment | undefined {
    const { ts } = this;
    const first = declarations[0];
    if (first === undefined) return undefined;
    const file = first.getSourceFile();
    if (!file.isDeclarationFile) return undefined;
    const bodiless = declarations.every(
      (d) =>
        d.getSourceFile() === file &&
        ((ts.isFunctionDeclaration(d) && d.body === undefined) || (ts.isMethodDeclaration(d) && d.body === undefined)),
    );
    if (!bodiless) return undefined;
    for (const source of this.sourcesOf(file)) {
      const implementation = findImplementation(ts, source, first);
      const comment = implementation === undefined ? undefined : commentOf(ts, implementation);
      if (comment !== undefined) return comment;
    }
    return undefined;
  }

  /** The parsed sources a declaration file's map names: `.ts` files of the package, not declaration files. */
  private sourcesOf(file: TypeScript.SourceFile): TypeScript.SourceFile[] {
    let sources = this.sources.get(file.fileName);
    if (sources === undefined) {
      sources = this.readSources(file);
      this.sources.set(file.fileName, sources);
    }
    return sources;
  }

  private readSources(file: TypeScript.SourceFile): TypeScript.SourceFile[] {
    const map = mapFileOf(file);
    if (map === undefined) return [];
    const mapPath = path.resolve(path.dirname(file.fileName), map);
    const manifest = this.read(mapPath);
    if (manifest === undefined) return [];
    let names: string[];
    try {
      names = sourceNames(JSON.parse(manifest) as unknown, path.dirname(mapPath));
    } catch {
      return [];
    }
    return names.flatMap((name) => {
      if (!this.parsed.has(name)) {
        const text = this.read(name);
        this.parsed.set(
          name,
          text === undefined
            ? undefined
            : this.ts.createSourceFile(name, text, this.ts.ScriptTarget.Latest, true, scriptKind(this.ts, name)),
        );
      }
      const parsed = this.parsed.get(name);
      return parsed === undefined ? [] : [parsed];
    });
  }

  /** A file of the package, within the limits; undefined when it is not one, missing or past them. */
  private read(file: string): string | undefined {
    let size: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile() || !this.isOwnFile(file)) return undefined;
      size = stat.size;
    } catch {
      return undefined;
    }
    if (this.files + 1 > this.limits.maxFiles || this.bytes + size > this.limits.maxBytes) {
      this.warn(
        `comments of shipped sources are read from ${this.limits.maxFiles} files or ${this.limits.maxBytes} bytes at most`,
      );
      return undefined;
    }
    this.files += 1;
    this.bytes += size;
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }
}

/** The relative path in a declaration file's last `//# sourceMappingURL=` comment; none for a data or remote URL. */
function mapFileOf(file: TypeScript.SourceFile): string | undefined {
  const found = /\/\/[#@]\s*sourceMappingURL=(\S+)\s*$/.exec(file.text.slice(-1024));
  const url = found?.[1];
  if (url === undefined || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/')) return undefined;
  try {
    return decodeURIComponent(url);
  } catch {
    return undefined;
  }
}

/** The TypeScript sources a source map names (version 3's `sources`, under its `sourceRoot`), as absolute paths. */
function sourceNames(map: unknown, mapDir: string): string[] {
  if (typeof map !== 'object' || map === null) return [];
  const { sources, sourceRoot } = map as { sources?: unknown; sourceRoot?: unknown };
  if (!Array.isArray(sources)) return [];
  const root = typeof sourceRoot === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(sourceRoot) ? sourceRoot : '';
  return sources
    .filter((s): s is string => typeof s === 'string')
    .filter((s) => /\.[cm]?tsx?$/.test(s) && !/\.d\.[cm]?ts$/.test(s) && !/^[a-z][a-z0-9+.-]*:/i.test(s))
    .slice(0, 4)
    .map((s) => path.resolve(mapDir, root, s));
}

function scriptKind(ts: typeof TypeScript, file: string): TypeScript.ScriptKind {
  return file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/**
 * The declaration with a body in `source` that `declaration` was written from: the function of that name among the
 * source's statements (and its namespaces'), or the method of that name and kind (static or not) in the class of
 * that name.
 */
function findImplementation(
  ts: typeof TypeScript,
  source: TypeScript.SourceFile,
  declaration: TypeScript.Declaration,
): TypeScript.FunctionLikeDeclaration | undefined {
  const name = nameOf(ts, declaration);
  if (name === undefined) return undefined;
  if (ts.isFunctionDeclaration(declaration)) {
    return statementsOf(ts, source).find(
      (s): s is TypeScript.FunctionDeclaration =>
        ts.isFunctionDeclaration(s) && s.body !== undefined && s.name?.text === name,
    );
  }
  const owner = declaration.parent;
  if (!ts.isMethodDeclaration(declaration) || !ts.isClassDeclaration(owner) || owner.name === undefined) {
    return undefined;
  }
  const isStatic = hasStatic(ts, declaration);
  const ownerName = owner.name.text;
  const klass = statementsOf(ts, source).find(
    (s): s is TypeScript.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === ownerName,
  );
  return klass?.members.find(
    (m): m is TypeScript.MethodDeclaration =>
      ts.isMethodDeclaration(m) && m.body !== undefined && nameOf(ts, m) === name && hasStatic(ts, m) === isStatic,
  );
}

/** A file's statements and those of the namespaces in it, depth first. */
function statementsOf(ts: typeof TypeScript, source: TypeScript.SourceFile): TypeScript.Statement[] {
  const out: TypeScript.Statement[] = [];
  const visit = (statements: readonly TypeScript.Statement[]) => {
    for (const statement of statements) {
      out.push(statement);
      if (ts.isModuleDeclaration(statement) && statement.body !== undefined && ts.isModuleBlock(statement.body)) {
        visit(statement.body.statements);
      }
    }
  };
  visit(source.statements);
  return out;
}

function nameOf(ts: typeof TypeScript, declaration: TypeScript.Declaration): string | undefined {
  const name = ts.getNameOfDeclaration(declaration);
  return name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name)) ? name.text : undefined;
}

function hasStatic(ts: typeof TypeScript, node: TypeScript.Node): boolean {
  return (ts.getCombinedModifierFlags(node as TypeScript.Declaration) & ts.ModifierFlags.Static) !== 0;
}

/** Tags that keep a declaration out of the public documentation (an implementation tagged so describes nothing). */
export const HIDDEN_TAGS: ReadonlySet<string> = new Set(['internal', 'hidden', 'ignore', 'private']);

/**
 * A tag's text as a page shows it, read from a declaration file or a shipped source alike. TypeScript's `@see` keeps
 * the next line's comment star when another tag follows it (`@see _.pull` then `@see _.uniq` reads "_.pull *"), so a
 * `@see` line loses a trailing star.
 */
export function tagText(name: string, text: string): string {
  const trimmed = text.trim();
  return name === 'see' ? trimmed.replace(/[ \t]+\*+[ \t]*$/gm, '') : trimmed;
}

/** The last doc comment above a node (the one TypeScript attaches), or undefined without text of its own. */
function commentOf(ts: typeof TypeScript, node: TypeScript.Node): DocComment | undefined {
  const jsDoc = ts
    .getJSDocCommentsAndTags(node)
    .filter((d): d is TypeScript.JSDoc => ts.isJSDoc(d))
    .at(-1);
  if (jsDoc === undefined) return undefined;
  const doc = (ts.getTextOfJSDocComment(jsDoc.comment) ?? '').trim();
  const tags = (jsDoc.tags ?? []).map((tag) => {
    const text = (ts.getTextOfJSDocComment(tag.comment) ?? '').trim();
    const named =
      ts.isJSDocParameterTag(tag) || ts.isJSDocPropertyTag(tag)
        ? tag.name.getText()
        : ts.isJSDocSeeTag(tag)
          ? tag.name?.getText()
          : undefined;
    return { name: tag.tagName.text, text: tagText(tag.tagName.text, named === undefined ? text : `${named} ${text}`) };
  });
  if (doc === '' || tags.some((tag) => HIDDEN_TAGS.has(tag.name))) return undefined;
  return { doc, tags };
}
