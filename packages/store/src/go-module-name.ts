// A major version suffix (`/v5`), and gopkg.in's (`yaml.v3`).
const MAJOR = /^v\d+$/;
const GOPKG_MAJOR = /\.v\d+$/;
// Last elements that say nothing of the library (`github.com/json-iterator/go`).
const GENERIC = new Set(['go', 'golang', 'lib', 'pkg', 'src', 'api', 'sdk']);

/**
 * The library name docs stores a Go module under: its path's last meaningful element, lower case, without a major
 * version suffix (`github.com/jackc/pgx/v5` → `pgx`, `gopkg.in/yaml.v3` → `yaml`, `github.com/json-iterator/go`
 * → `json-iterator`), so that an agent finds it by the name its code imports; the version says the major
 * (`pgx@5.7.2`). A library name holds no `/` beyond an npm scope's, and a module path is found by this name too
 * ({@link parsePackageSpec}). Characters a library name cannot hold become `-`.
 *
 * @example
 * goLibraryName('github.com/spf13/cobra'); // → 'cobra'
 */
export function goLibraryName(modulePath: string): string {
  const parts = modulePath.split('/').filter((p) => p !== '');
  while (parts.length > 1 && MAJOR.test(parts[parts.length - 1] as string)) parts.pop();
  let last = (parts.pop() ?? modulePath).replace(GOPKG_MAJOR, '');
  if (GENERIC.has(last.toLowerCase()) && parts.length > 1) last = parts.pop() as string;
  const name = last
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '');
  return name === '' ? 'module' : name;
}

/**
 * Whether `name` reads as a Go module path rather than a library name: its first element is a host (it holds a
 * dot) and a path follows (`github.com/spf13/cobra`, `golang.org/x/sync`). An npm scope (`@types/node`) is not one.
 */
export function isGoModulePath(name: string): boolean {
  const slash = name.indexOf('/');
  return slash > 0 && name.slice(0, slash).includes('.') && !name.startsWith('@');
}

/** A Go version as docs stores it, without its `v` (`v1.8.1` → `1.8.1`), as npm and PyPI write theirs. */
export function storedGoVersion(version: string): string {
  return version.replace(/^v(?=\d)/, '');
}
