import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledDependency } from '../dependencies.js';
import { findDocFiles } from '../walk.js';
import { findPythonDependencies } from './dependencies.js';
import { stageFromSdist } from './sdist.js';
import { layOutVenv, writeFiles } from './venv-layout.test-kit.js';

// A package index on port 0 answering PEP 691 JSON, with sdists the test packs; pip (the machine's python3) is asked
// which index to use through PIP_INDEX_URL, as a user's configuration would say.
let dir: string;
let server: Server;
let project: string;
const sdists = new Map<string, Buffer>();
const pages = new Map<string, object>();
const originalIndex = process.env.PIP_INDEX_URL;

async function pack(name: string, files: Record<string, string>, link?: string): Promise<Buffer> {
  const tar = await import('tar');
  const root = path.join(dir, 'src', name);
  await writeFiles(root, files);
  if (link) await symlink('/etc/passwd', path.join(root, link));
  const archive = path.join(dir, `${name}.tar.gz`);
  await tar.c({ gzip: true, file: archive, cwd: path.join(dir, 'src') }, [name]);
  return readFile(archive);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-python-sdist-'));
  server = createServer((request, response) => {
    const url = request.url ?? '';
    const page = pages.get(url);
    if (page) {
      response.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json' });
      response.end(JSON.stringify(page));
      return;
    }
    const file = sdists.get(url);
    response.writeHead(file ? 200 : 404);
    response.end(file);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  process.env.PIP_INDEX_URL = `http://127.0.0.1:${port}/simple`;
  const good = await pack(
    'documented-1.0',
    {
      'docs/index.rst': 'Documented\n==========\n\nThe guide.\n',
      'docs/conf.py': 'project = "x"\n',
      'setup.py': 'raise SystemExit("never run")\n',
    },
    'docs/leak.md',
  );
  sdists.set('/files/documented-1.0.tar.gz', good);
  const sha = createHash('sha256').update(good).digest('hex');
  pages.set('/simple/documented/', {
    files: [
      { filename: 'documented-0.9.tar.gz', url: '/files/documented-0.9.tar.gz', hashes: {} },
      { filename: 'documented-1.0-py3-none-any.whl', url: '/files/documented-1.0-py3-none-any.whl', hashes: {} },
      { filename: 'documented-1.0.tar.gz', url: '../../files/documented-1.0.tar.gz', hashes: { sha256: sha } },
    ],
  });
  sdists.set('/files/tampered-1.0.tar.gz', await pack('tampered-1.0', { 'docs/index.md': '# x\n' }));
  pages.set('/simple/tampered/', {
    files: [{ filename: 'tampered-1.0.tar.gz', url: '/files/tampered-1.0.tar.gz', hashes: { sha256: '0'.repeat(64) } }],
  });
  pages.set('/simple/undocumented/', { files: [] });
  project = path.join(dir, 'project');
  await writeFiles(project, { 'requirements.txt': 'documented\ntampered\nundocumented\n' });
  await layOutVenv(
    project,
    ['documented', 'tampered', 'undocumented'].map((name) => ({
      name,
      version: '1.0',
      description: `# ${name}\n`,
    })),
  );
});

afterAll(async () => {
  if (originalIndex === undefined) delete process.env.PIP_INDEX_URL;
  else process.env.PIP_INDEX_URL = originalIndex;
  server.close();
  await rm(dir, { recursive: true, force: true });
});

async function dependency(name: string): Promise<InstalledDependency> {
  const found = await findPythonDependencies(project, { dev: false, all: false, env: {} });
  return found?.installed.find((d) => d.name === name) as InstalledDependency;
}

describe('docs from the sdist of the installed version', () => {
  it('adds the docs folder of the sdist the configured index lists for that version, unpacked and never run', async () => {
    const stage = await stageFromSdist(await dependency('documented'));
    expect(stage.from).toBe('repository');
    expect(stage.tag).toBe('documented-1.0.tar.gz');
    if (!stage.result.ok) throw new Error(stage.result.error);
    try {
      const files = (await findDocFiles(stage.result.value.root)).map((f) => f.relativePath).sort();
      // Regular files only: the link to /etc/passwd is not written.
      expect(files).toEqual(['README.md', 'docs/index.rst']);
      expect(stage.result.value.source).toBe('pypi-sdist:documented-1.0.tar.gz path docs, pypi:documented@1.0');
    } finally {
      await stage.result.value.dispose();
    }
  });

  it.each([
    ['tampered', /^cannot fetch tampered-1\.0\.tar\.gz: its sha256 does not match the index$/],
    ['undocumented', /^no sdist \(\.tar\.gz\) of 1\.0 on its index$/],
  ])('builds %s as without it, saying why', async (name, reason) => {
    const stage = await stageFromSdist(await dependency(name));
    expect(stage.from).toBe('package');
    expect(stage.fallback).toMatch(reason);
    if (!stage.result.ok) throw new Error(stage.result.error);
    expect((await findDocFiles(stage.result.value.root)).map((f) => f.relativePath)).toEqual(['README.md']);
    await stage.result.value.dispose();
  });
});
