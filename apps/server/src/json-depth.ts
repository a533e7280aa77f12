/**
 * Whether JSON text nests arrays and objects deeper than `max`, read without parsing: brackets inside strings
 * (and escaped quotes) do not count. A body nested 400,000 deep parses, but everything that then walks it (the
 * copy to a worker thread, the SDK's schemas) overflows the stack; refused before, it is a 400, not a 500.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
