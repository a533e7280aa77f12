import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NUMERIC_KNOBS, RANKING_DEFAULTS, RANKING_KNOBS, SearchOptionError } from './index.js';
import { resolveOptions } from './options.js';
import { resolveRanking } from './ranking.js';

const refuse = (message: string) => new SearchOptionError(message);

describe('the table of ranking knobs', () => {
  it('gives every knob a default it accepts, frozen', () => {
    expect(resolveRanking({}, refuse)).toEqual(RANKING_DEFAULTS);
    expect(Object.isFrozen(RANKING_DEFAULTS)).toBe(true);
    expect(Object.keys(RANKING_DEFAULTS)).toEqual(Object.keys(RANKING_KNOBS));
  });

  it('is what a search runs with when the caller sets no knob', () => {
    const resolved = resolveOptions({}).ranking;
    for (const [name, value] of Object.entries(RANKING_DEFAULTS)) expect(resolved).toHaveProperty(name, value);
  });

  it('lists every numeric knob, and only those', () => {
    for (const name of Object.keys(RANKING_KNOBS) as (keyof typeof RANKING_KNOBS)[])
      expect(NUMERIC_KNOBS.includes(name as never)).toBe(typeof RANKING_DEFAULTS[name] === 'number');
  });

  it.each(NUMERIC_KNOBS)('%s refuses NaN and infinities with SearchOptionError naming it', (name) => {
    for (const value of [Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(() => resolveOptions({ ranking: { [name]: value } })).toThrow(SearchOptionError);
      expect(() => resolveOptions({ ranking: { [name]: value } })).toThrow(new RegExp(`^${name} must be `));
    }
  });

  it('a value the knob accepts is the value searched with; one it refuses throws, whatever the number', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NUMERIC_KNOBS), fc.double(), (name, value) => {
        const knob = RANKING_KNOBS[name] as { accepts: (v: number) => boolean };
        if (knob.accepts(value)) expect(resolveOptions({ ranking: { [name]: value } }).ranking[name]).toBe(value);
        else expect(() => resolveOptions({ ranking: { [name]: value } })).toThrow(SearchOptionError);
      }),
    );
  });

  it('leaves a knob given as undefined at its default, as before the table', () => {
    expect(resolveOptions({ ranking: { drop: undefined as unknown as number } }).ranking.drop).toBe(
      RANKING_DEFAULTS.drop,
    );
  });

  it('refuses a fusion it does not know, quoting it', () => {
    expect(() => resolveOptions({ ranking: { fusion: 'max' as 'rrf' } })).toThrow(
      'fusion must be "convex" or "rrf", got "max"',
    );
  });
});
