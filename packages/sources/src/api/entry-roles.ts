/**
 * The folder, under `api/`, of the pages of an entry point a package's docs never import: a search reads a page
 * there as one for tools and integrations (`vitest/node`, `zod/v4/core`, `axios/unsafe/utils.js`), weighing it
 * less than the entry points a user imports (`@docs/search`'s `isOtherEntryPointPage` reads the same name).
 */
export const OTHER_ENTRY_POINTS = 'other-entry-points';

/**
 * Whether an entry point is one the package shows its users: the package's
 * root, or a subpath its own README or docs name as a module specifier
 * (`from 'hono/cors'`, `require("dotenv/config")`, `` `zod/v4` ``). Any other
 * (`vitest/node`, `axios/unsafe/utils.js`) serves tools and integrations, or
 * the package's own plumbing, as far as the package says.
 *
 * @example
 * isShownEntryPoint('vitest/node', 'vitest', "import { defineConfig } from 'vitest/config'"); // → false
 * isShownEntryPoint('vitest/config', 'vitest', "import { defineConfig } from 'vitest/config'"); // → true
 */
export function isShownEntryPoint(importPath: string, packageName: string, docsText: string): boolean {
  if (importPath === packageName) return true;
  // A module specifier is a string in code: quoted, or in backticks as prose names one.
  return ["'", '"', '`'].some((quote) => docsText.includes(`${quote}${importPath}${quote}`));
}
