import { describe, expect, it } from 'vitest';
import { isShownEntryPoint } from './entry-roles.js';

describe('isShownEntryPoint', () => {
  it.each([
    ['the root, whatever the docs say', 'vitest', 'vitest', '', true],
    ['a subpath imported in an example', 'hono/cors', 'hono', "import { cors } from 'hono/cors'", true],
    ['a subpath required', 'dotenv/config', 'dotenv', 'require("dotenv/config")', true],
    ['a subpath named as code in prose', 'zod/v4', 'zod', 'Zod 4 lives at `zod/v4`.', true],
    ['a subpath never named', 'vitest/node', 'vitest', "import { defineConfig } from 'vitest/config'", false],
    ['a subpath named only in words', 'rxjs/testing', 'rxjs', 'see rxjs/testing for marble tests', false],
    ['a longer subpath is not the shorter one', 'zod/v4', 'zod', "import { z } from 'zod/v4/core'", false],
    ['no docs at all', 'axios/unsafe/utils.js', 'axios', '', false],
  ])('%s', (_, importPath, packageName, docsText, expected) => {
    expect(isShownEntryPoint(importPath, packageName, docsText)).toBe(expected);
  });
});
