import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDocFiles } from './walk.js';

describe('findDocFiles', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'docs-ingest-walk-'));
    const files = [
      'README.md',
      'guide/intro.mdx',
      'guide/Deep/Nested.MARKDOWN',
      'guide/b.md',
      'guide/a.md',
      'api/reference.MD',
      'notes.txt',
      'guide/setup.rst',
      'guide/manual.adoc',
      'guide/page.html',
      'LICENSE.txt',
      'requirements-dev.txt',
      'docs/_build/html/index.html',
      'image.png',
      'guide/script.ts',
      'node_modules/pkg/README.md',
      'guide/node_modules/dep/doc.md',
      '.git/description.md',
      '.vitepress/theme/index.md',
      'guide/.hidden/secret.md',
      'guide/.draft.md',
    ];
    for (const file of files) {
      const absolute = path.join(root, file);
      await mkdir(path.dirname(absolute), { recursive: true });
      await writeFile(absolute, `# ${file}\n`);
    }
    // A directory named like a document is still a directory.
    await mkdir(path.join(root, 'folder.md'));
    await writeFile(path.join(root, 'folder.md', 'inside.md'), '# inside\n');
    try {
      await symlink(path.join(root, 'guide'), path.join(root, 'linked-guide'), 'dir');
      await symlink(path.join(root, 'README.md'), path.join(root, 'linked-readme.md'), 'file');
    } catch {
      // Symlinks may be unavailable (e.g. Windows without privileges); the
      // assertions below then simply see no links.
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lists doc files sorted by posix relative path, skipping dependencies, VCS, hidden entries, build output and data files', async () => {
    const files = await findDocFiles(root);
    const relative = files.map((file) => file.relativePath);
    expect(relative.filter((file) => file !== 'linked-readme.md')).toEqual([
      'README.md',
      'api/reference.MD',
      'folder.md/inside.md',
      'guide/Deep/Nested.MARKDOWN',
      'guide/a.md',
      'guide/b.md',
      'guide/intro.mdx',
      'guide/manual.adoc',
      'guide/page.html',
      'guide/setup.rst',
      'notes.txt',
    ]);
    expect(relative.some((file) => file.startsWith('linked-guide/'))).toBe(false);
    for (const file of files) {
      expect(path.isAbsolute(file.absolutePath)).toBe(true);
      expect(file.absolutePath).toBe(path.join(root, ...file.relativePath.split('/')));
    }
  });

  it('follows symlinked files but not symlinked directories', async () => {
    const relative = (await findDocFiles(root)).map((file) => file.relativePath);
    expect(relative.filter((file) => file.startsWith('linked'))).toEqual(
      relative.includes('linked-readme.md') ? ['linked-readme.md'] : [],
    );
  });

  it('accepts a hidden root folder', async () => {
    const files = await findDocFiles(path.join(root, '.vitepress'));
    expect(files.map((file) => file.relativePath)).toEqual(['theme/index.md']);
  });

  it('throws a clear error for a missing root or a file root', async () => {
    await expect(findDocFiles(path.join(root, 'missing'))).rejects.toThrow(/does not exist/);
    await expect(findDocFiles(path.join(root, 'README.md'))).rejects.toThrow(/not a directory/);
  });
});
