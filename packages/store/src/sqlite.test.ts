import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadOnlyDatabase } from './sqlite.js';

// A store keeps up to a thousand read connections open (PackageStore's maxOpenPackages): each must hold little.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-sqlite-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('openReadOnlyDatabase', () => {
  it('maps nothing of the file and keeps a page cache of 32 KiB, and reads the file', () => {
    const file = path.join(dir, 'x.db');
    const writer = new Database(file);
    writer.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')");
    writer.close();
    const db = openReadOnlyDatabase(file);
    try {
      expect(db.pragma('mmap_size', { simple: true })).toBe(0);
      expect(db.pragma('cache_size', { simple: true })).toBe(-32);
      expect(db.prepare('SELECT v FROM t').pluck().get()).toBe('kept');
      expect(() => db.exec("INSERT INTO t VALUES ('no')")).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });
});
