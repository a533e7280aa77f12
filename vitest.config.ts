import { defineConfig } from 'vitest/config';

// One root config; each workspace package is a project. Tests import sibling
// packages through the "@docs/source" export condition, so they run against
// src/ without a build. End-to-end CLI tests spawn the built dist instead.
const packages = [
  'packages/rank',
  'packages/errors',
  'packages/store',
  'packages/sources',
  'packages/embed',
  'packages/ingest',
  'packages/search',
  'packages/mcp',
  'apps/cli',
  'apps/server',
  'apps/eval',
  'apps/bench',
];

export default defineConfig({
  test: {
    projects: packages.map((root) => ({
      resolve: { conditions: ['@docs/source'] },
      ssr: { resolve: { conditions: ['@docs/source'] } },
      test: {
        name: root.split('/')[1],
        root,
        include: ['src/**/*.test.ts'],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
