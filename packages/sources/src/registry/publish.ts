import { createHash } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type InstalledPackage, inspectPackageFile, type PackageStore, packageFileName } from '@docs/store';
import semver from 'semver';
import { tempDir } from '../temp-dir.js';
import { type DocPackageManifest, docPackageName, docPackageReadme, readDocManifest } from './doc-package.js';
import { loadNpmOptions, type NpmOptions, type RegistryOptions, registryFor } from './npm-config.js';
import { RegistryError, toRegistryError } from './registry-error.js';

/** Options for {@link publishDocPackage}. */
export interface PublishOptions extends RegistryOptions {
  /** The dist-tag to publish under. @default "latest" (refused for a version below the current latest) */
  readonly tag?: string;
  /** Build the tarball and report it, but send nothing. */
  readonly dryRun?: boolean;
}

/** What was (or, with dryRun, would be) published. */
export interface PublishResult {
  /** The npm package, `@acme/docs-react`. */
  readonly name: string;
  readonly version: string;
  readonly tag: string;
  readonly registry: string;
  /** The tarball's sha512 integrity, as the registry records it. */
  readonly integrity: string;
  /** The tarball's size in bytes. */
  readonly bytes: number;
  readonly docs: DocPackageManifest;
  readonly dryRun: boolean;
}

/**
 * Publishes an installed documentation package to an npm registry as
 * `<scope>/docs-<library>` at the library's version, with npm's own
 * libraries: the registry, token and proxy come from `.npmrc` as for `npm
 * publish`. A registry never accepts a version twice, so a version already
 * published is refused (RegistryError 'already-published') with what to do.
 *
 * @example
 * const found = await store.resolve('react@19.2.0');
 * if (found.ok) await publishDocPackage(store, found.value, { scope: '@acme' });
 */
export async function publishDocPackage(
  store: PackageStore,
  pkg: InstalledPackage,
  options: PublishOptions,
): Promise<PublishResult> {
  const info = await inspectPackageFile(pkg.file);
  const version = semver.valid(info.version);
  if (version === null) {
    throw new RegistryError(
      'invalid-spec',
      `${info.name}@${info.version} cannot be published: npm registries take semver versions (1.2.3); ` +
        `build it again with docs add <source> --version <x.y.z>`,
    );
  }
  const name = docPackageName(options.scope, info.name);
  const reader = store.reader(pkg);
  const stats = await reader.stats();
  const embedder = (await reader.embedder())?.id;
  const docs: DocPackageManifest = {
    library: info.name,
    version: info.version,
    format: info.formatVersion,
    file: packageFileName(info),
    documents: stats.documents,
    sections: stats.chunks,
    tokens: stats.tokens,
    source: info.source,
    builtAt: info.builtAt,
    ...(embedder ? { embedder } : {}),
  };
  const manifest = {
    name,
    version,
    description: `Documentation of ${info.name}@${info.version} as a docs package (search it with docs install ${name}@${version})`,
    keywords: ['docs-package', 'documentation', info.name],
    files: [docs.file, 'README.md'],
    docs,
  };
  const readme = docPackageReadme(name, docs);
  const tarball = await packTarball(pkg.file, manifest, readme);
  const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
  const npm = await loadNpmOptions(options);
  const registry = registryFor(options.scope, npm);
  const subject = `${name}@${version}`;
  const published = options.dryRun ? undefined : await publishedVersions(name, npm, registry);
  const tag = options.tag ?? 'latest';
  if (published?.versions.includes(version)) {
    const existing = published.docs.get(version);
    throw new RegistryError(
      'already-published',
      `${subject} is already on ${registry}` +
        (existing ? ` (built ${existing.builtAt}, package format ${existing.format})` : '') +
        '; a registry never accepts a version twice. Installers keep getting the published one. To replace it, ' +
        `unpublish it first (npm unpublish ${subject} --registry ${registry}, where the registry's policy allows) and publish again.`,
    );
  }
  const latest = published?.latest;
  if (options.tag === undefined && latest && semver.lt(version, latest)) {
    throw new RegistryError(
      'invalid-spec',
      `${subject} is below ${name}@${latest}, which is "latest" on ${registry}; publishing it as "latest" would make ` +
        `installers of ${name} go back to it. Give it a tag of its own: --tag v${semver.major(version)}`,
    );
  }
  if (!options.dryRun) {
    try {
      await (await import('libnpmpublish')).default.publish(
        { ...manifest, readme, readmeFilename: 'README.md' },
        tarball,
        { ...npm, defaultTag: tag },
      );
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EPUBLISHCONFLICT' || code === 'E409') {
        throw new RegistryError('already-published', `${subject} was published on ${registry} meanwhile`, {
          cause: error,
        });
      }
      throw toRegistryError(error, subject, registry);
    }
  }
  return { name, version, tag, registry, integrity, bytes: tarball.length, docs, dryRun: options.dryRun === true };
}

/** The npm tarball: `package/` holding package.json, the README and the package file. */
export async function packTarball(
  file: string,
  manifest: { docs: DocPackageManifest },
  readme: string,
): Promise<Buffer> {
  const { dir, dispose } = await tempDir('publish');
  try {
    const root = path.join(dir, 'package');
    await mkdir(root);
    await writeFile(path.join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(path.join(root, 'README.md'), readme);
    await copyFile(file, path.join(root, manifest.docs.file));
    const tar = await import('tar');
    // portable: no owner, group or host-specific modes, as npm pack writes them.
    const stream = tar.create({ gzip: true, cwd: dir, portable: true }, ['package']);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    await dispose();
  }
}

/** The published versions of `name`, its latest tag, and what each version's `docs` field says; undefined when none is. */
async function publishedVersions(
  name: string,
  npm: NpmOptions,
  registry: string,
): Promise<{ versions: string[]; latest: string | undefined; docs: Map<string, DocPackageManifest> } | undefined> {
  try {
    const { packument } = (await import('pacote')).default;
    const found = await packument(name, { ...npm, fullMetadata: true, preferOnline: true });
    const docs = new Map<string, DocPackageManifest>();
    for (const [version, manifest] of Object.entries(found.versions)) {
      const parsed = readDocManifest(manifest);
      if (parsed) docs.set(version, parsed);
    }
    return { versions: Object.keys(found.versions), latest: found['dist-tags'].latest, docs };
  } catch (error) {
    if ((error as { code?: string }).code === 'E404') return undefined;
    throw toRegistryError(error, name, registry);
  }
}
