import { indexTokens } from '@docs/store';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { headingNames, wholeTrail } from './heading-names.js';

const whole = (breadcrumb: string[], asked: string[]) =>
  wholeTrail(indexTokens(breadcrumb.join(' ')), headingNames(breadcrumb), new Set(asked));

it('leaves out a joined name the question names only in part', () => {
  expect(whole(['click API', 'help_option'], ['option'])).toEqual(['click', 'api', '\u0000']);
  expect(whole(['click API', 'option'], ['option'])).toEqual(['click', 'api', 'option']);
  // Every word asked (the stop word `to` aside): the name stays.
  expect(whole(['yaml API', 'add_constructor'], ['add', 'constructor'])).toEqual(['yaml', 'api', 'add', 'constructor']);
  expect(whole(['serde_json', 'to_string_pretty'], ['pretty', 'json'])).toEqual(['\u0000', '\u0000']);
  expect(whole(['Fake timers', 'useFakeTimers'], ['fake'])).toEqual(['fake', 'timers', 'usefaketimers']);
});

it("holds the trail's own tokens, name by name, whatever the heading", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 24 }), { maxLength: 4 }), (breadcrumb) => {
      const trail = indexTokens(breadcrumb.join(' '));
      expect(headingNames(breadcrumb).flatMap((name) => name.tokens)).toEqual(trail);
      expect(whole(breadcrumb, trail)).toEqual(trail);
    }),
    { numRuns: 300 },
  );
  expect(headingNames(['Tips™', 'x_y'])).toEqual([
    { tokens: ['tipstm'], words: 1 },
    { tokens: ['x', 'y'], words: 2 },
  ]);
});
