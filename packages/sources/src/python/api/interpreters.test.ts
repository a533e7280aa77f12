import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interpretersFor } from './parse-modules.js';

// A project's virtualenv arrives with the project: its interpreter is run only as `python -m venv` makes it.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-py-interpreters-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A project with a `.venv` whose `bin/python3` is made by `make`; its site-packages folder. */
async function venv(name: string, make: (python: string) => Promise<void>): Promise<string> {
  const root = path.join(dir, name, '.venv');
  const site = path.join(root, 'lib', 'python3.11', 'site-packages');
  await mkdir(site, { recursive: true });
  await mkdir(path.join(root, 'bin'), { recursive: true });
  await writeFile(path.join(root, 'pyvenv.cfg'), 'home = /usr/bin\n');
  await make(path.join(root, 'bin', 'python3'));
  return site;
}

describe('interpretersFor', () => {
  it("runs the virtualenv's interpreter by its real path when it links outside the project", async () => {
    const system = await realpath(
      execFileSync('python3', ['-c', 'import sys; print(sys.executable)']).toString().trim(),
    );
    const site = await venv('linked', (python) => symlink(system, python));
    expect(await interpretersFor(site)).toEqual([system, 'python3', 'python']);
  });

  it('passes over an interpreter file inside the project, and one linked to a file inside it', async () => {
    const script = async (file: string) => {
      await writeFile(file, '#!/bin/sh\ntouch "$0.ran"\n');
      await chmod(file, 0o755);
    };
    const committed = await venv('committed', script);
    expect(await interpretersFor(committed)).toEqual(['python3', 'python']);
    const inside = await venv('inside', async (python) => {
      const evil = path.join(dir, 'inside', 'tools', 'python');
      await mkdir(path.dirname(evil), { recursive: true });
      await script(evil);
      await symlink(evil, python);
    });
    expect(await interpretersFor(inside)).toEqual(['python3', 'python']);
  });
});
