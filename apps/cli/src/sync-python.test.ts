import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, type Ran, run, writeFiles } from './__tests__/run-command.js';

// The built command run on a Python project made here: a requirements.txt, and a .venv laid out as pip installs
// (dist-info with METADATA and RECORD, the modules beside them). Its modules are parsed by the machine's python3.
let dir: string;
let project: string;
let temp: string;

function docs(...args: string[]): Promise<Ran> {
  return run(process.execPath, [bin, ...args, '--home', path.join(dir, 'home')], project, {
    ...process.env,
    TMPDIR: temp,
    // --from-repo asks this index, which refuses at once: the sdist is never found, and the package is built.
    PIP_INDEX_URL: 'http://127.0.0.1:9/simple',
  });
}

function distribution(name: string, version: string, files: Record<string, string>): Record<string, string> {
  const info = `${name}-${version}.dist-info`;
  const record = [...Object.keys(files), `${info}/METADATA`, `${info}/RECORD`].map((f) => `${f},,`).join('\n');
  return {
    ...files,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nDescription-Content-Type: text/markdown\n\n# ${name}\n\nThe ${name} library.\n`,
    [`${info}/RECORD`]: `${record}\n`,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-cli-python-'));
  temp = path.join(dir, 'tmp');
  await mkdir(temp);
  project = path.join(dir, 'project');
  await writeFiles(project, {
    'requirements.txt': 'Fetcher==2.32.3\n',
    '.venv/pyvenv.cfg': 'home = /usr/bin\n',
  });
  await writeFiles(path.join(project, '.venv', 'lib', 'python3.11', 'site-packages'), {
    ...distribution('Fetcher', '2.32.3', {
      'fetcher/__init__.py': 'from .models import Response\n',
      'fetcher/models.py':
        'class Response:\n    """A response."""\n    def raise_for_status(self):\n        """Raises `HTTPError` for a 4xx or 5xx status."""\n',
    }),
    // Installed as a dependency of Fetcher, not declared by the project: built only with --all.
    ...distribution('idna', '3.10', { 'idna/__init__.py': 'def encode(s):\n    """Encode."""\n' }),
  });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('docs sync in a Python project', () => {
  it('builds the declared distributions with API pages, skips them when built, and --all adds the rest', async () => {
    const synced = await docs('sync', '--json');
    expect(synced.stderr).toBe('');
    const report = JSON.parse(synced.stdout);
    expect(report.built.map((b: { library: string }) => b.library)).toEqual(['fetcher@2.32.3']);
    expect(report.failed).toEqual([]);
    // The text says where the rest of a Python distribution's docs are; JSON holds only the report.
    expect(synced.stdout).not.toContain('--from-repo');
    const text = await docs('sync', '--rebuild');
    expect(text.stdout).toMatch(
      /Synced .*: 1 built, 0 skipped, 0 failed\nA Python distribution was built from installed files, which hold no docs folder: `docs sync --from-repo` adds/,
    );
    const answer = await docs('get', 'fetcher', 'raise an exception for 4xx and 5xx responses', '--json');
    const first = JSON.parse(answer.stdout).results[0];
    expect(first).toMatchObject({ library: 'fetcher@2.32.3', path: 'api/fetcher/Response.md' });
    expect(first.content).toContain('`from fetcher import Response`');
    const again = await docs('sync');
    expect(again.stdout).toMatch(/Skipped fetcher@2\.32\.3: already built\n.*0 built, 1 skipped, 0 failed/s);
    expect(again.stdout).not.toContain('--from-repo');
    const fromRepo = await docs('sync', '--from-repo', '--rebuild');
    expect(fromRepo.stdout).toMatch(/Rebuilt fetcher@2\.32\.3: .*from the package \(/);
    expect(fromRepo.stdout).not.toContain('`docs sync --from-repo`');
    const all = await docs('sync', '--all', '--json');
    expect(JSON.parse(all.stdout).built.map((b: { library: string }) => b.library)).toEqual(['idna@3.10']);
    expect(await readdir(temp)).toEqual([]);
  });
});
