import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type DocsToolContext, registerDocsTools } from '../index.js';

// What the newer @docs/mcp tests share (not part of the build): real packages in a temporary store, and a real
// MCP client connected to the tools over a linked in-memory pair.

/** One package to install: its documents as the store takes them. */
export interface TestPackage {
  readonly name: string;
  readonly version: string;
  readonly documents: readonly DocumentInput[];
  readonly description?: string;
}

/** A document of one section per entry, each `[heading, content]`, its tokens counted roughly as a package would. */
export function documentOf(docPath: string, title: string, sections: ReadonlyArray<[string, string]>): DocumentInput {
  return {
    path: docPath,
    title,
    content: sections.map(([heading, content]) => `## ${heading}\n\n${content}`).join('\n\n'),
    chunks: sections.map(([heading, content]) => ({
      breadcrumb: [title, heading],
      level: 2,
      content,
      tokens: Math.ceil(content.length / 4),
    })),
  };
}

/** A temporary folder, and stores and servers in it, all closed and removed by `cleanup`. */
export class TestKit {
  readonly #cleanups: Array<() => Promise<void>> = [];
  #dir: string | undefined;

  async dir(): Promise<string> {
    this.#dir ??= await mkdtemp(path.join(tmpdir(), 'docs-mcp-kit-'));
    return this.#dir;
  }

  /** A store in a fresh folder with these packages installed. */
  async storeWith(packages: readonly TestPackage[]): Promise<PackageStore> {
    const dir = await this.dir();
    const store = new PackageStore(await mkdtemp(path.join(dir, 'home-')));
    this.#cleanups.push(() => store.close());
    for (const pkg of packages) {
      const file = path.join(dir, `package-${Math.random().toString(36).slice(2)}.db`);
      await writePackage(file, { name: pkg.name, version: pkg.version, description: pkg.description ?? '' }, [
        ...pkg.documents,
      ]);
      await store.install(file, { move: true });
    }
    return store;
  }

  /** A real client talking to a server with the docs tools; `session`: the server transport's session id. */
  async connect(context: DocsToolContext, session?: string): Promise<Connected> {
    const server = new McpServer({ name: 'docs-test', version: '0.0.0' });
    await registerDocsTools(server, context);
    const client = new Client({ name: 'test-client', version: '0.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    if (session !== undefined) serverSide.sessionId = session;
    const received: JSONRPCMessage[] = [];
    const send = serverSide.send.bind(serverSide);
    // What the server puts on the wire, as it is: the SDK's parsed results are not the bytes a client pays for.
    serverSide.send = async (message, options) => {
      received.push(message);
      await send(message, options);
    };
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    this.#cleanups.push(async () => {
      await client.close();
      await server.close();
    });
    return {
      client,
      received,
      call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    };
  }

  async cleanup(): Promise<void> {
    for (const cleanup of this.#cleanups.splice(0).reverse()) await cleanup();
    if (this.#dir) await rm(this.#dir, { recursive: true, force: true });
  }
}

/** A client connected to the tools, and a shorthand for calling one. */
export interface Connected {
  readonly client: Client;
  /** Every message the server sent the client, in order. */
  readonly received: readonly JSONRPCMessage[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** The text blocks of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
