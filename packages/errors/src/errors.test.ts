import { describe, expect, it, vi } from 'vitest';
import { type Blame, classify, DocsError, isDocsError, isDocsErrorNamed } from './index.js';

type WidgetCode = 'not-found' | 'invalid-name';

class WidgetError extends DocsError<WidgetCode> {
  override readonly name = 'WidgetError';
  override get blame(): Blame {
    return this.code === 'invalid-name' ? 'caller' : 'user';
  }
}

describe('classify', () => {
  it.each([
    [new WidgetError('invalid-name', 'bad name'), 'caller', 'invalid-name'],
    [new WidgetError('not-found', 'no such widget'), 'user', 'not-found'],
    [new RangeError('deep down'), 'bug', 'internal'],
    [new TypeError('x is undefined'), 'bug', 'internal'],
    ['a thrown string', 'bug', 'internal'],
    [undefined, 'bug', 'internal'],
  ] as const)('%s → %s (%s)', (error, blame, code) => {
    const classified = classify(error);
    expect(classified.blame).toBe(blame);
    expect(classified.code).toBe(code);
    expect(classified.message).toBe(error instanceof Error ? error.message : String(error));
  });
});

describe('recognition across copies of a class', () => {
  it('an error made by another copy of the package (a bundle inlines its own) is still a DocsError of its name', async () => {
    // A second copy of the module, as a bundle would carry: another class object, the same brand.
    vi.resetModules();
    const copy = await import('./docs-error.js');
    expect(copy.DocsError).not.toBe(DocsError);
    class CopiedWidgetError extends copy.DocsError<WidgetCode> {
      override readonly name = 'WidgetError';
    }
    const error = new CopiedWidgetError('not-found', 'no such widget');
    expect(error instanceof DocsError).toBe(false);
    expect(isDocsError(error)).toBe(true);
    expect(isDocsErrorNamed(error, 'WidgetError', ['not-found'])).toBe(true);
    expect(isDocsErrorNamed(error, 'WidgetError', ['invalid-name'])).toBe(false);
    expect(isDocsErrorNamed(error, 'OtherError')).toBe(false);
    expect(classify(error)).toEqual({ blame: 'user', code: 'not-found', message: 'no such widget' });
  });

  it('an Error with a code that is not branded is not a DocsError', () => {
    const lookalike = Object.assign(new Error('looks like one'), { name: 'WidgetError', code: 'not-found' });
    expect(isDocsError(lookalike)).toBe(false);
    expect(classify(lookalike).blame).toBe('bug');
  });

  it('keeps the cause', () => {
    const cause = new Error('EACCES');
    expect(new WidgetError('not-found', 'x', { cause }).cause).toBe(cause);
  });
});
