import { describe, expect, test } from 'vitest';
import { groupDigits, terminalJson, terminalSafe } from './terminal.js';

describe('terminalSafe', () => {
  test.each([
    { name: 'OSC 0 (window title)', text: 'a\u001b]0;pwned\u0007b', shown: 'a\\x1b]0;pwned\\x07b' },
    { name: 'OSC 52 (clipboard)', text: '\u001b]52;c;ZXZpbA==\u0007', shown: '\\x1b]52;c;ZXZpbA==\\x07' },
    { name: 'CSI 2J (clear screen)', text: '\u001b[2J', shown: '\\x1b[2J' },
    { name: 'C1 CSI and OSC', text: '\u009b2J\u009d0;x\u009c', shown: '\\x9b2J\\x9d0;x\\x9c' },
    { name: 'DEL and NUL', text: '\u007f\u0000', shown: '\\x7f\\x00' },
    { name: 'a lone carriage return', text: 'done\roverwritten', shown: 'done\\x0doverwritten' },
    { name: 'newlines, tabs and CRLF line ends', text: 'a\r\n\tb\nc', shown: 'a\n\tb\nc' },
    { name: 'text with no controls', text: 'café → 😀', shown: 'café → 😀' },
  ])('$name', ({ text, shown }) => {
    expect(terminalSafe(text)).toBe(shown);
  });
});

describe('terminalJson', () => {
  test('escapes DEL and C1 controls, which JSON.stringify leaves raw, and parses back to the same value', () => {
    const value = { text: 'a\u009b2J\u009d\u007f\u001b[2Jé' };
    const json = terminalJson(value);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(json).toContain('\\u009b2J');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('groupDigits', () => {
  test.each([0, 7, 12, 999, 1000, 12345, 305544, 2107161, 1e9, -1234, 9007199254740991])(
    'writes %d as toLocaleString("en") does',
    (count) => {
      expect(groupDigits(count)).toBe(count.toLocaleString('en'));
    },
  );
});
