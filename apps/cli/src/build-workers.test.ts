import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';

// Worker threads exist only in the built package (the worker is a compiled
// file), so this runs the built @docs/ingest in a separate Node process.
const ingest = fileURLToPath(new URL('../../../packages/ingest/dist/index.js', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-workers-'));
  await Promise.all(
    Array.from({ length: 120 }, (_, i) =>
      writeFile(
        path.join(dir, `page-${String(i).padStart(3, '0')}.md`),
        `# Page ${i}\n\nIntro ${i} about caching.\n\n## Details\n\n${`Words about retries and timeouts on page ${i}. `.repeat(20 + (i % 7) * 30)}\n\n## Shared\n\nThis paragraph repeats on every page.\n`,
      ),
    ),
  );
  // A page holding a large share of the build is sent to a worker before the pages ahead of it,
  // and must still be written in its place.
  const big = Array.from(
    { length: 400 },
    (_, i) => `## Release ${i}\n\n${`Fixed retries and timeouts in release ${i}. `.repeat(12)}\n`,
  );
  await writeFile(path.join(dir, 'page-060-releases.md'), `# Releases\n\n${big.join('\n')}`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function build(workers: number, output: string): void {
  const script = `import { buildPackage } from ${JSON.stringify(ingest)};
    await buildPackage({ root: ${JSON.stringify(dir)}, name: 'w', version: '1.0.0', output: ${JSON.stringify(output)}, workers: ${workers} });`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.stderr.slice(0, 2000)).toBe('');
  expect(result.status).toBe(0);
}

function contents(file: string): unknown[] {
  const db = new Database(file, { readonly: true });
  const rows = db
    .prepare(
      'SELECT d.path, c.ord, c.breadcrumb, c.content, c.tokens FROM chunks c JOIN documents d ON d.id = c.document_id ORDER BY c.id',
    )
    .all();
  db.close();
  return rows;
}

it('builds the same package on worker threads as on one thread, and exits when done', () => {
  build(0, path.join(dir, 'inline.db'));
  build(2, path.join(dir, 'workers.db'));
  const inline = contents(path.join(dir, 'inline.db'));
  expect(inline.length).toBeGreaterThan(640);
  expect(contents(path.join(dir, 'workers.db'))).toEqual(inline);
});
