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

/** Builds a package into a temporary file and installs it into the store at `home`. */
export async function installTestPackage(home: string, name: keyof typeof testPackages): Promise<void> {
  const { version, documents } = testPackages[name];
  const work = await mkdtemp(path.join(path.dirname(home), 'build-'));
  const file = path.join(work, `${name}@${version}.db`);
  await writePackage(file, { name, version }, documents);
  const store = new PackageStore(home);
  await store.install(file, { move: true });
  await store.close();
}

/** What a tool call answered, flattened for assertions. */
export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: structured content is checked field by field
  readonly data: any;
}

/** Calls a tool through a real client. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    isError: result.isError === true,
    text: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n'),
    data: result.structuredContent ?? {},
  };
}
