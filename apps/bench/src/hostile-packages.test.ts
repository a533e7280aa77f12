import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fuzzHostile } from './hostile-fuzz.js';

// The short version of `pnpm fuzz --hostile N`: real package files changed at random, each refused with a reason or
// installed harmlessly beside healthy libraries (every search answers, within a fixed multiple of its budget).

let work: string;
beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'docs-hostile-fuzz-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

it('hostile packages are refused with a reason or installed harmlessly', { timeout: 240_000 }, async () => {
  const figures = await fuzzHostile(work, 60, 20261126, [500]);
  expect(figures.failed).toBe(0);
  // Both ways out are exercised: the drawn changes include harmless ones and ones the install checks refuse.
  expect(figures.refused).toBeGreaterThan(0);
  expect(figures.accepted).toBeGreaterThan(0);
});
