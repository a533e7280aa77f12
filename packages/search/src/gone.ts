import { isStoreError } from '@docs/store';
import type { LibraryError, LibraryResolution } from './library-scope.js';

type Found = Extract<LibraryResolution, { ok: true }>;

/** True for the store's "removed after it was listed" error: another process's `docs remove` won a race. */
export function isGone(error: unknown): boolean {
  return isStoreError(error, 'gone');
}

/** How many times a package removed mid-request is looked up again before the request fails. */
const ATTEMPTS = 3;

/**
 * Answers from the package `resolve` finds. When that package is removed by
 * another process before it can be read, it is looked up again, so the answer
 * comes from what is installed now: another version, or `notFound` saying it
 * is not installed (never SQLite's "unable to open database file").
 */
export async function answerFromInstalled<T>(
  resolve: () => Promise<LibraryResolution>,
  answer: (found: Found) => Promise<T>,
  notFound: (error: LibraryError) => T,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const found = await resolve();
    if (!found.ok) return notFound(found.error);
    try {
      return await answer(found);
    } catch (error) {
      if (!isGone(error) || attempt >= ATTEMPTS) throw error;
    }
  }
}

/** Runs `search` again when a package it listed was removed before it could be read (see searchAll). */
export async function retryIfGone<T>(search: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await search();
    } catch (error) {
      if (!isGone(error) || attempt >= ATTEMPTS) throw error;
    }
  }
}
