import { expect, test } from 'vitest';
import { closestName } from './closest.js';

const names = ['alpha', 'beta', 'vitest', 'tanstack-query', 'drizzle-orm'];

test.each([
  ['alpah', 'alpha'],
  ['vitset', 'vitest'],
  ['VITEST', 'vitest'],
  ['tanstack', 'tanstack-query'],
  ['drizzle', 'drizzle-orm'],
  ['bta', 'beta'],
  ['zzzzzz', undefined],
  ['x', undefined],
])('closestName(%s) = %s', (wanted, expected) => {
  expect(closestName(wanted, names)).toBe(expected);
});
