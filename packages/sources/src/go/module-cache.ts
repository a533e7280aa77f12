import { homedir } from 'node:os';
import path from 'node:path';
import { goOnPath, runGo } from './go-command.js';

/**
 * A module path or version as the module cache writes it: each capital letter as `!` and its lower case
 * (`github.com/BurntSushi/toml` → `github.com/!burnt!sushi/toml`), so that two paths differing only in case stay
 * apart on a case-insensitive disk (golang.org/x/mod/module's EscapePath).
 *
 * @example
 * escapeModulePath('github.com/BurntSushi/toml'); // → 'github.com/!burnt!sushi/toml'
 */
export function escapeModulePath(modulePath: string): string {
  return modulePath.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/**
 * Whether a module path or version from a go.mod may name a folder: no empty, `.` or `..` element, no backslash,
 * no absolute path. A go.mod is untrusted, and its paths become folders under the module cache.
 */
export function isSafeModulePath(value: string): boolean {
  if (value === '' || value.includes('\\') || value.includes('\0') || value.startsWith('/')) return false;
  return value.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * The module cache folder: `go env GOMODCACHE` through the user's `go` (which reads GOMODCACHE, GOPATH and
 * go's own env file); where go is not on PATH, `$GOMODCACHE`, else the first of `$GOPATH` + `/pkg/mod`, else
 * `~/go/pkg/mod`, as go decides it.
 */
export async function moduleCacheDir(): Promise<string> {
  if (await goOnPath()) {
    const run = await runGo(['env', 'GOMODCACHE'], { env: { GOFLAGS: '' } });
    const dir = run.ok ? run.stdout.trim() : '';
    if (dir !== '') return dir;
  }
  if (process.env.GOMODCACHE) return process.env.GOMODCACHE;
  const gopath = process.env.GOPATH?.split(path.delimiter).find((p) => p !== '');
  return path.join(gopath ?? path.join(homedir(), 'go'), 'pkg', 'mod');
}

/** Where the module cache holds `modulePath@version`'s files, or undefined for a path that may not name a folder. */
export function moduleFolder(cache: string, modulePath: string, version: string): string | undefined {
  if (!isSafeModulePath(modulePath) || !isSafeModulePath(version) || version.includes('/')) return undefined;
  return path.join(cache, ...`${escapeModulePath(modulePath)}@${escapeModulePath(version)}`.split('/'));
}
