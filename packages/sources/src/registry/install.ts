import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  compareVersions,
  formatPackageId,
  type InstalledPackage,
  PACKAGE_FORMAT_VERSION,
  type PackageInfo,
  type PackageStore,
} from '@docs/store';
import { formatBytes } from '../fetch-document.js';
import { installPackageFile } from '../package-file.js';
import { tempDir } from '../temp-dir.js';
import { assertScope, type DocPackageManifest, docPackageName, readDocManifest } from './doc-package.js';
import { loadNpmOptions, type NpmOptions, type RegistryOptions, registryFor } from './npm-config.js';
import { RegistryError, toRegistryError } from './registry-error.js';

/** Options for {@link installDocPackage}. */
export interface InstallOptions {
  /** The scope a bare library name is looked up in: `react@19` → `@acme/docs-react@19`. */
  readonly scope?: string;
  /** A registry URL that overrides what `.npmrc` says for the scope. */
  readonly registry?: string;
  /** The project folder whose `.npmrc` applies. @default process.cwd() */
  readonly cwd?: string;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Asked whether to follow the registry settings of the project's `.npmrc` (see RegistryOptions). @default never */
  readonly approveProjectNpmrc?: NonNullable<RegistryOptions['approveProjectNpmrc']>;
  /**
   * The most a doc package may unpack to, counted from its tar headers before
   * anything is written, so a hostile tarball cannot fill the disk. The same
   * limit `docs add <file.db>` puts on a package file. @default 1 GiB
   */
  readonly maxBytes?: number;
}

/** A doc package resolved on a registry, before anything is downloaded. */
export interface ResolvedDocPackage {
  /** `@acme/docs-react@19.2.0` */
  readonly spec: string;
  readonly registry: string;
  readonly integrity: string;
  readonly docs: DocPackageManifest;
}

/** What {@link installDocPackage} installed. */
export interface InstalledDocPackage extends ResolvedDocPackage {
  readonly installed: InstalledPackage;
  readonly info: PackageInfo;
  /** True when the same name@version was installed before and was replaced. */
  readonly replaced: boolean;
}

/**
 * The npm package a spec names: `@acme/docs-react@^19` as it is, or a
 * library (`react@19`, `@babel/core@7`) with `scope` as `@acme/docs-react@19`.
 */
export async function docPackageSpec(
  spec: string,
  scope: string | undefined,
): Promise<{ name: string; range: string }> {
  const { default: npa } = await import('npm-package-arg');
  let parsed: ReturnType<typeof npa>;
  try {
    parsed = npa(spec);
  } catch (error) {
    throw new RegistryError('invalid-spec', `"${spec}" is not a package spec: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!['version', 'range', 'tag'].includes(parsed.type) || parsed.name === null) {
    throw new RegistryError(
      'invalid-spec',
      `"${spec}" is not a registry package: give @scope/docs-<library>[@range], or <library>[@range] with --scope`,
    );
  }
  const range = parsed.rawSpec === '' ? 'latest' : parsed.rawSpec;
  if (scope !== undefined) assertScope(scope);
  const inScope = parsed.scope !== null && (scope === undefined || parsed.scope === scope);
  if (inScope && parsed.name.slice(parsed.name.indexOf('/') + 1).startsWith('docs-'))
    return { name: parsed.name, range };
  if (scope === undefined) {
    throw new RegistryError(
      'invalid-spec',
      `say which scope ${parsed.name}'s docs are published under: --scope @acme, or the package's full name (@acme/docs-${parsed.name.replace(/^@/, '').replace('/', '__')})`,
    );
  }
  return { name: docPackageName(scope, parsed.name), range };
}

/**
 * Finds the doc package a spec names on its registry (from `.npmrc`, as npm
 * would) and checks from its manifest that this docs can use it. Throws
 * RegistryError: 'not-found', 'no-matching-version' (listing the published
 * versions), 'unauthorized', 'not-a-doc-package', 'other-format'.
 */
export async function resolveDocPackage(
  spec: string,
  options: InstallOptions = {},
): Promise<{ resolved: ResolvedDocPackage; npm: NpmOptions }> {
  const { name, range } = await docPackageSpec(spec, options.scope);
  const scope = name.slice(0, name.indexOf('/'));
  const npm = await loadNpmOptions({ ...options, scope });
  const registry = registryFor(scope, npm);
  const { manifest, packument } = (await import('pacote')).default;
  const wanted = `${name}@${range}`;
  let found: Awaited<ReturnType<typeof manifest>>;
  try {
    // preferOnline: a version published a minute ago must be seen, so the cached list is revalidated.
    found = await manifest(wanted, { ...npm, fullMetadata: true, preferOnline: true });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ETARGET') throw toRegistryError(error, name, registry);
    const published = await packument(name, { ...npm, preferOnline: true }).catch(() => undefined);
    // The store's order of versions, highest first: a registry holding a version that is not semver still lists.
    const versions = Object.keys(published?.versions ?? {}).sort((a, b) => compareVersions(b, a));
    throw new RegistryError(
      'no-matching-version',
      `${name} has no version matching "${range}" on ${registry}. Published: ${versions.join(', ') || '(none)'}`,
      { cause: error },
    );
  }
  const resolved = `${found.name}@${found.version}`;
  const docs = readDocManifest(found);
  if (!docs) {
    throw new RegistryError(
      'not-a-doc-package',
      `${resolved} is not a doc package (its package.json has no "docs" field)`,
    );
  }
  if (docs.format !== PACKAGE_FORMAT_VERSION) {
    const advice =
      docs.format > PACKAGE_FORMAT_VERSION
        ? 'upgrade docs to read it'
        : `ask for it to be published again by a current docs, or build it here (docs add / docs sync)`;
    throw new RegistryError(
      'other-format',
      `${resolved} holds package format ${docs.format}, and this docs reads format ${PACKAGE_FORMAT_VERSION}: ${advice}`,
    );
  }
  // The scope's mapping is the contract: @acme/docs-react holds react, whatever its manifest says. Otherwise a
  // package published under one name would replace another library in the store (its file is checked against the
  // manifest's library at install).
  const bound = boundLibrary(found.name, docs.library);
  if (bound !== undefined) {
    throw new RegistryError(
      'not-a-doc-package',
      `${resolved} is the doc package of ${bound}, but it says it documents ${docs.library}; refused`,
    );
  }
  if (!/^[^/\\]+\.db$/.test(docs.file) || docs.file.startsWith('.')) {
    throw new RegistryError(
      'not-a-doc-package',
      `${resolved} names its package file "${docs.file}", which is not a plain .db file name`,
    );
  }
  return { resolved: { spec: resolved, registry, integrity: found._integrity, docs }, npm };
}

/**
 * Installs a doc package from an npm registry: resolves the spec, downloads
 * the tarball and checks it against the integrity the registry published
 * (pacote), then validates the package file inside exactly as `docs add
 * <file.db>` does (an untrusted file: size, SQLite header, the exact schema
 * with no triggers or views, the format, SQLite's check) and that it is the
 * library and version the manifest claims, and installs it atomically. A
 * package that fails any check is refused with the reason and the store is
 * unchanged.
 *
 * @example
 * await installDocPackage(store, 'react@19', { scope: '@acme' });
 */
export async function installDocPackage(
  store: PackageStore,
  spec: string,
  options: InstallOptions = {},
): Promise<InstalledDocPackage> {
  const { resolved, npm } = await resolveDocPackage(spec, options);
  const work = await tempDir('install');
  try {
    const folder = path.join(work.dir, 'package');
    await mkdir(folder);
    await extractPackageFile(resolved, npm, folder, options.maxBytes ?? DEFAULT_MAX_BYTES);
    const file = path.join(folder, resolved.docs.file);
    const entry = await lstat(file).catch(() => undefined);
    if (!entry?.isFile()) {
      throw new RegistryError(
        'not-a-doc-package',
        `${resolved.spec} does not hold its package file ${resolved.docs.file}${entry ? ' as a regular file' : ''}`,
      );
    }
    const { library, version } = resolved.docs;
    const { installed, info, replaced } = await installPackageFile(store, file, {
      check: (info) => {
        if (info.name.toLowerCase() !== library.toLowerCase() || info.version !== version) {
          throw new RegistryError(
            'not-a-doc-package',
            `${resolved.spec} says it documents ${library}@${version}, but its package file is ${formatPackageId(info)}; refused`,
          );
        }
      },
    });
    return { ...resolved, installed, info, replaced };
  } finally {
    await work.dispose();
  }
}

const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * Downloads the tarball (checked against the integrity the registry published
 * as it streams) and unpacks only its package file into `folder`. Every
 * entry's size is read from its tar header before its body is written, so a
 * package that would unpack past `maxBytes` is refused early rather than
 * after the disk has filled; links and other files are never written.
 */
async function extractPackageFile(
  resolved: ResolvedDocPackage,
  npm: NpmOptions,
  folder: string,
  maxBytes: number,
): Promise<void> {
  const pacote = (await import('pacote')).default;
  const tar = await import('tar');
  const wanted = resolved.docs.file;
  let unpacked = 0;
  let tooLarge: RegistryError | undefined;
  try {
    await pacote.tarball.stream(
      resolved.spec,
      (tarball) =>
        new Promise<void>((resolve, reject) => {
          const extractor = tar.x({
            cwd: folder,
            strip: 1,
            noChmod: true,
            noMtime: true,
            filter: (entryPath, entry) => {
              unpacked += 'size' in entry ? entry.size : 0;
              if (unpacked > maxBytes && !tooLarge) {
                tooLarge = new RegistryError(
                  'too-large',
                  `${resolved.spec} unpacks to more than ${formatBytes(maxBytes)}, the limit for a doc package; refused`,
                );
                extractor.abort(tooLarge);
              }
              return !tooLarge && 'type' in entry && entry.type === 'File' && entryPath === `package/${wanted}`;
            },
          });
          extractor.on('error', reject);
          extractor.on('close', () => (tooLarge ? reject(tooLarge) : resolve()));
          tarball.on('error', reject);
          tarball.pipe(extractor);
        }),
      { ...npm, integrity: resolved.integrity },
    );
  } catch (error) {
    throw tooLarge ?? toRegistryError(error, resolved.spec, resolved.registry);
  }
}

/**
 * The library an npm doc package's name binds it to (`@acme/docs-react` → react, `@acme/docs-babel__core` →
 * @babel/core) when `library` is another one; undefined when they agree. npm names are lower case, so the
 * comparison is too, as it is for library names in the store.
 */
function boundLibrary(packageName: string, library: string): string | undefined {
  const scope = packageName.slice(0, packageName.indexOf('/'));
  if (docPackageName(scope, library) === packageName.toLowerCase()) return undefined;
  const flat = packageName.slice(packageName.indexOf('/') + 1).replace(/^docs-/, '');
  return flat.includes('__') ? `@${flat.replace('__', '/')}` : flat;
}
