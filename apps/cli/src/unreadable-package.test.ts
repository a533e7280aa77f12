import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asNobody, isRoot, NOBODY } from './__tests__/as-nobody.js';

// A package file in the store that this user may not read (installed by another user, or a hand-made chmod): the
// answers about the other libraries go on, and what names that library says why. Root reads any file, so as root
// the commands run as the unprivileged `nobody` user (skipped where nobody cannot reach the built command).

const bin = fileURLToPath(new URL('../dist/bin.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./__fixtures__', import.meta.url));
let root: string;
let home: string;

/** `docs …` on the test's store, as a user who may not read the locked package. */
function docs(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args, '--home', home], {
    encoding: 'utf8',
    // A home of the test's own: the user config under the real one is not readable by nobody.
    env: { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, 'config') },
    ...(asNobody ? { uid: NOBODY, gid: NOBODY } : {}),
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'docs-unreadable-'));
  home = path.join(root, 'home');
  for (const fixture of ['alpha@1.0.0', 'beta@2.0.0']) {
    const [name, version] = fixture.split('@') as [string, string];
    const added = spawnSync(
      process.execPath,
      [bin, 'add', path.join(fixtures, fixture), '--name', name, '--version', version, '--home', home],
      { encoding: 'utf8' },
    );
    expect(added.status, added.stderr).toBe(0);
  }
  await chmod(root, 0o755);
  await chmod(home, 0o755);
  await chmod(path.join(home, 'beta@2.0.0.db'), 0o000);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32' || (isRoot && !asNobody))('a package this user may not read', () => {
  it('is left out of a search over every library with a note saying why; the others answer', () => {
    const searched = docs('search', 'enable cors', '--json');
    expect(searched.status, searched.stderr).toBe(0);
    const answer = JSON.parse(searched.stdout) as {
      status: string;
      searched: string[];
      warnings?: string[];
      results: { library: string }[];
    };
    expect(answer.status).toBe('ok');
    expect(answer.searched).toEqual(['alpha@1.0.0']);
    expect(answer.results.map((r) => r.library)).toContain('alpha@1.0.0');
    expect(answer.warnings).toEqual([
      expect.stringMatching(
        /^Left out beta@2\.0\.0: beta@2\.0\.0 cannot be read: .*beta@2\.0\.0\.db \(permission denied\)/,
      ),
    ]);
  });

  it('asked about by name, says it cannot be read and why, not "unable to open database file"', () => {
    const asked = docs('get', 'beta', 'enable cors');
    expect(asked.status).not.toBe(0);
    expect(asked.stderr).toMatch(/beta@2\.0\.0 cannot be read: this process may not read .* \(permission denied\)/);
    expect(asked.stderr).not.toMatch(/unable to open database file/);
  });

  it('is named by docs list, which lists the rest', () => {
    const listed = docs('list');
    expect(listed.stdout).toMatch(/^alpha@1\.0\.0 /m);
    expect(listed.stderr).toMatch(/beta@2\.0\.0 cannot be read/);
  });
});
