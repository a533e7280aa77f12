import { lstat } from 'node:fs/promises';
import path from 'node:path';
import {
  formatPackageId,
  type InstalledPackage,
  PACKAGE_FORMAT_VERSION,
  type PackageInfo,
  type PackageStore,
} from '@docs/store';
import semver from 'semver';
import { installPackageFile } from '../package-file.js';
import { tempDir } from '../temp-dir.js';
import { assertScope, type DocPackageManifest, docPackageName, readDocManifest } from './doc-package.js';
import { loadNpmOptions, type NpmOptions, registryFor } from './npm-config.js';
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
 * versions), 'unauthorized', 'not-a-doc-package'.
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
    const versions = Object.keys(published?.versions ?? {}).sort(semver.rcompare);
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
      'not-a-doc-package',
      `${resolved} holds package format ${docs.format}, and this docs reads format ${PACKAGE_FORMAT_VERSION}: ${advice}`,
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
  const { extract } = (await import('pacote')).default;
  const work = await tempDir('install');
  try {
    const folder = path.join(work.dir, 'package');
    try {
      await extract(resolved.spec, folder, { ...npm, integrity: resolved.integrity });
    } catch (error) {
      throw toRegistryError(error, resolved.spec, resolved.registry);
    }
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
