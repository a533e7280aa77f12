import { describe, expect, it } from 'vitest';
import { isFenceClose, matchFenceOpen } from './fence.js';

describe('code fence helpers', () => {
  it('recognises fences with any length, indentation and container prefix', () => {
    expect(matchFenceOpen('```ts')).toEqual({ char: '`', length: 3 });
    expect(matchFenceOpen('  ~~~~ info')).toEqual({ char: '~', length: 4 });
    expect(matchFenceOpen('1. ```js')).toEqual({ char: '`', length: 3 });
    expect(matchFenceOpen('> ```')).toEqual({ char: '`', length: 3 });
    expect(matchFenceOpen('``not a fence``')).toBeNull();
    expect(matchFenceOpen('```inline ` code```')).toBeNull();
  });

  it('closes only with the same character and at least the same length', () => {
    const fence = { char: '`', length: 4 } as const;
    expect(isFenceClose('```', fence)).toBe(false);
    expect(isFenceClose('~~~~', fence)).toBe(false);
    expect(isFenceClose('`````  ', fence)).toBe(true);
    expect(isFenceClose('```` x', fence)).toBe(false);
  });
});
