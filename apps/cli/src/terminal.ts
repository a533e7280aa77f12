// A package is built elsewhere: its text may hold escape sequences that set the terminal's title (OSC 0), write the
// clipboard (OSC 52) or clear the screen (CSI 2J). What the command prints of it is shown, never obeyed.

/** C0 controls but tab and newline, DEL and the C1 controls (U+0080–U+009F, where CSI and OSC also live). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with every control character a terminal would act on made visible as `\xNN` (ESC → `\x1b`), so an escape
 * sequence prints as text; tabs and newlines stay, and a CRLF line end becomes a newline.
 *
 * @example
 * terminalSafe('a\u001b]0;pwned\u0007b'); // 'a\\x1b]0;pwned\\x07b'
 */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * JSON as the command prints it: JSON.stringify's, with DEL and the C1 controls written as `\u00XX` too, which
 * JSON.stringify leaves raw and a terminal may obey. (Inside JSON they can only stand in strings, where the escape
 * means the same character.)
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** Writes a line of text on stdout, made safe for the terminal. */
export function printLine(text: string): void {
  process.stdout.write(`${terminalSafe(text)}\n`);
}

/** Writes a line of text on stderr, made safe for the terminal. */
export function printErrorLine(text: string): void {
  process.stderr.write(`${terminalSafe(text)}\n`);
}

/**
 * A count with a comma between each three digits, as `toLocaleString('en')` writes a whole number, without it: its
 * first call in a process loads ICU's number formatter (~13 ms of CPU, a tenth of a small `docs add`).
 *
 * @example
 * groupDigits(2107161); // → '2,107,161'
 */
export function groupDigits(count: number): string {
  const digits = String(Math.trunc(Math.abs(count)));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return count < 0 ? `-${grouped}` : grouped;
}
