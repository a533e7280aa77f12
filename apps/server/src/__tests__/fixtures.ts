import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// Small real packages and a tool-call helper for the server tests (not part of the build).

const cors = (framework: string): DocumentInput => ({
  path: 'middleware/cors.md',
  title: 'CORS',
  content: `# CORS\n\nEnable CORS in ${framework} with the cors middleware.`,
  chunks: [
    {
      breadcrumb: ['CORS'],
      level: 1,
      content: `Enable CORS in ${framework} with the cors middleware so a browser on another origin can call it.`,
      tokens: 24,
    },
  ],
});

const timers: DocumentInput = {
  path: 'guide/timers.md',
  title: 'Timers',
  content: '# Timers\n\nFake timers replace setTimeout.',
  chunks: [
    { breadcrumb: ['Timers'], level: 1, content: 'Fake timers replace setTimeout and setInterval.', tokens: 12 },
  ],
};

/** The packages the tests install, by name. */
export const testPackages = {
  webframe: { version: '2.0.0', documents: [cors('webframe')] },
  apiframe: { version: '3.1.0', documents: [cors('apiframe')] },
  testlib: { version: '1.0.0', documents: [timers] },
} as const;

/** Builds a package into a temporary file and installs it into the store at `home`, recording `source` if given. */
export async function installTestPackage(
  home: string,
  name: keyof typeof testPackages,
  source?: string,
): Promise<void> {
  const { version, documents } = testPackages[name];
  const work = await mkdtemp(path.join(path.dirname(home), 'build-'));
  const file = path.join(work, `${name}@${version}.db`);
  await writePackage(file, { name, version, ...(source === undefined ? {} : { source }) }, documents);
  const store = new PackageStore(home);
  await store.install(file, { move: true });
  await store.close();
}

/** What a tool call answered, flattened for assertions: its text, which is all a server sends by default. */
export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
}

/** Calls a tool through a real client. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    isError: result.isError === true,
    text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
  };
}

/** The library of each result of a search's text, in order (`## webframe@2.0.0 · CORS · middleware/cors.md …`). */
export function resultLibraries(text: string): string[] {
  return [...text.matchAll(/^## (\S+) · /gm)].map((m) => m[1] as string);
}

/** The libraries list_libraries' text lists (`- webframe@2.0.0: 1 sections, …`), in order. */
export function listedLibraries(text: string): string[] {
  return [...text.matchAll(/^- (\S+): /gm)].map((m) => m[1] as string);
}

/** Terminal escapes a hostile package plants in its text: OSC 0 (title), OSC 52 (clipboard), CSI 2J, C1 CSI and OSC. */
export const ESCAPES = '\u001b]0;PWNED\u0007 \u001b]52;c;ZXZpbA==\u0007 \u001b[2J \u009b2J \u009d0;x\u009c';

/**
 * Installs `hostile@1.0.0`, a package whose maker lied: a section (and its page) of `megabytes` MB stored as 5 tokens, a title,
 * path and breadcrumb of as many, a description of as many, and escapes in every string. Every section holds the
 * word "budget".
 */
export async function installHostilePackage(home: string, megabytes = 3): Promise<void> {
  const size = megabytes * 1_000_000;
  const documents: DocumentInput[] = [
    {
      path: 'guide/padded.md',
      title: 'Padded',
      // Runs of one character are honest o200k tokens of 64 characters each: a budget in tokens alone sends 64 bytes a token.
      content: `Padded page\n\n${`${'='.repeat(999)}\n`.repeat(size / 1000)}`,
      chunks: [
        {
          breadcrumb: ['Padded budget'],
          level: 1,
          content: `budget padded\n\n${'word '.repeat(size / 5)}`,
          tokens: 5,
          indexText: 'budget padded',
        },
      ],
    },
    {
      // A path is a line: an install refuses one over 1,000 characters.
      path: `guide/${'\u001b'.repeat(Math.min(size, 990))}.md`,
      title: `Budget ${ESCAPES} ${'\u001b'.repeat(size)}`,
      content: 'long labels',
      chunks: [
        {
          breadcrumb: ['Budget', ...Array.from({ length: 1000 }, (_, i) => `h${i} ${'\u009b'.repeat(size / 1000)}`)],
          level: 6,
          content: `budget with long labels ${ESCAPES}`,
          tokens: 5,
        },
      ],
    },
  ];
  const work = await mkdtemp(path.join(path.dirname(home), 'build-'));
  const file = path.join(work, 'hostile@1.0.0.db');
  await writePackage(
    file,
    { name: 'hostile', version: '1.0.0', description: `Hostile ${ESCAPES} ${'d'.repeat(size)}` },
    documents,
  );
  const store = new PackageStore(home);
  await store.install(file, { move: true });
  await store.close();
}
