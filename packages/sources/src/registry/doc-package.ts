import { RegistryError } from './registry-error.js';

/**
 * What a doc package's `package.json` says under `docs`: it marks the npm
 * package as a documentation package and describes the `.db` inside it
 * without anyone having to download it.
 */
export interface DocPackageManifest {
  /** The library documented, as the package file names it (`react`, `@babel/core`). */
  readonly library: string;
  /** The library's version the docs were built for (the npm package has the same version). */
  readonly version: string;
  /** The package file format (`PRAGMA user_version`). */
  readonly format: number;
  /** The package file inside the tarball, e.g. `react@19.2.0.db`. */
  readonly file: string;
  readonly documents: number;
  readonly sections: number;
  readonly tokens: number;
  /** Where the docs were built from (a folder, a repository URL, a website). */
  readonly source: string;
  /** ISO 8601 time of the build. */
  readonly builtAt: string;
  /** The embedding model of the package's vectors, when it has any. */
  readonly embedder?: string;
}

const SCOPE = /^@[a-z0-9][a-z0-9._-]*$/;

/** Throws RegistryError('invalid-spec') unless `scope` is an npm scope such as `@acme`. */
export function assertScope(scope: string): void {
  if (!SCOPE.test(scope)) {
    throw new RegistryError('invalid-spec', `"${scope}" is not an npm scope: use the form @acme (lower case)`);
  }
}

/**
 * The npm package that carries a library's docs: `@acme/docs-react`. A scoped
 * library is written as DefinitelyTyped writes it (`@babel/core` →
 * `@acme/docs-babel__core`), and npm names are lower case.
 */
export function docPackageName(scope: string, library: string): string {
  assertScope(scope);
  const flat = library.startsWith('@') ? library.slice(1).replace('/', '__') : library;
  return `${scope}/docs-${flat.toLowerCase()}`;
}

/** The `docs` field of a manifest, when it is a doc package's; undefined otherwise. */
export function readDocManifest(manifest: Readonly<Record<string, unknown>>): DocPackageManifest | undefined {
  const docs = manifest.docs as Record<string, unknown> | undefined;
  if (typeof docs !== 'object' || docs === null) return undefined;
  const text = (key: string) => (typeof docs[key] === 'string' ? (docs[key] as string) : undefined);
  const count = (key: string) => (Number.isSafeInteger(docs[key]) ? (docs[key] as number) : undefined);
  const library = text('library');
  const version = text('version');
  const file = text('file');
  const format = count('format');
  if (library === undefined || version === undefined || file === undefined || format === undefined) return undefined;
  const embedder = text('embedder');
  return {
    library,
    version,
    format,
    file,
    documents: count('documents') ?? 0,
    sections: count('sections') ?? 0,
    tokens: count('tokens') ?? 0,
    source: text('source') ?? '',
    builtAt: text('builtAt') ?? '',
    ...(embedder === undefined ? {} : { embedder }),
  };
}

/** The README shown on the registry's page for a doc package. */
export function docPackageReadme(packageName: string, docs: DocPackageManifest): string {
  const scope = packageName.slice(0, packageName.indexOf('/'));
  return `# ${packageName}

Documentation of **${docs.library}@${docs.version}**, as a package for [docs](https://www.npmjs.com/package/@docs/cli),
the local documentation search for AI agents: ${docs.documents} documents, ${docs.sections} sections,
${docs.tokens.toLocaleString('en')} tokens, package format ${docs.format}${docs.embedder ? `, vectors from ${docs.embedder}` : ''}.
Built ${docs.builtAt} from ${docs.source || 'an unnamed source'}.

This is not a code package: installing it with npm does nothing useful. Install it into a docs store:

\`\`\`sh
docs install ${packageName}@${docs.version}
# or, by the library's name
docs install ${docs.library}@${docs.version} --scope ${scope}
\`\`\`

\`docs sync --scope ${scope}\` installs it for a project that depends on ${docs.library}@${docs.version}.
The file \`${docs.file}\` is the package itself (SQLite); \`docs add ./${docs.file}\` installs it too.
`;
}
