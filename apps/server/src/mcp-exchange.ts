import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { HttpAnswer } from './api.js';

/** The answer's headers, as the SDK's web-standard transport gives them for a JSON answer. */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'application/json' };

interface Waiting {
  /** The id the client gave its request, put back in the answer. */
  readonly id: RequestId;
  resolve(answer: HttpAnswer): void;
  reject(error: Error): void;
}

/**
 * Answers the usual MCP request over HTTP, one JSON-RPC request (a tool call, tools/list, ping) with the headers a
 * client sends, on one MCP server that stays connected to this transport. The SDK's web-standard transport takes
 * one request and is then closed, and its server with it: per request that was a Request and a Response built to
 * be read back, the answer through a web stream, a server connected and closed; together a tenth of a worker's time.
 *
 * Requests of different clients share the server, so each gets an id of this transport's own on the way in (two
 * clients both sending id 1 would otherwise meet) and its own id back in the answer, which is otherwise the
 * server's message as the SDK's transport writes it. Everything else (initialize, batches, notifications, a header
 * or message the SDK's transport refuses) is left to that transport: `take` says which.
 */
export class McpExchange implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 0;
  #closed = false;

  async start(): Promise<void> {}

  /**
   * The request when this exchange answers it: a single JSON-RPC request other than initialize, whose Accept,
   * Content-Type and MCP-Protocol-Version headers the SDK's transport accepts as they are. Undefined otherwise.
   */
  take(message: unknown, headers: Readonly<Record<string, string>>): JSONRPCRequest | undefined {
    if (Array.isArray(message) || typeof message !== 'object' || message === null) return undefined;
    // The checks of the SDK's handlePostRequest, kept to the values it surely accepts.
    const accept = headers.accept;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (!isPlainJson(headers['content-type'])) return undefined;
    const version = headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
    if (!('method' in message) || !('id' in message) || message.method === 'initialize') return undefined;
    // The SDK's transport hands its server what this schema makes of the message; so does this one.
    const parsed = JSONRPCMessageSchema.safeParse(message);
    if (!parsed.success || !('method' in parsed.data) || !('id' in parsed.data)) return undefined;
    return parsed.data;
  }

  /** Answers a request `take` returned; `headers` are the request's, as the server's handlers see them. */
  answer(request: JSONRPCRequest, headers: Readonly<Record<string, string>>): Promise<HttpAnswer> {
    if (this.#closed) return Promise.reject(new Error('the server is closing'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { id: request.id, resolve, reject });
      this.onmessage?.({ ...request, id }, { requestInfo: { headers: { ...headers } } });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers to the requests numbered here go anywhere. A notification (the tool list changed) has no stream
    // to go to in a stateless request, and the SDK's transport drops it too.
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return;
    const waiting = this.#waiting.get(message.id);
    if (!waiting) return;
    this.#waiting.delete(message.id);
    // Spread, so the id keeps its place among the keys and the body is the SDK transport's to the byte.
    waiting.resolve({
      status: 200,
      headers: { ...JSON_HEADERS },
      body: JSON.stringify({ ...message, id: waiting.id }),
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiting of this.#waiting.values()) waiting.reject(new Error('the server is closing'));
    this.#waiting.clear();
    this.onclose?.();
  }
}

/** A Content-Type of JSON with no parameter but UTF-8: the SDK's transport accepts more, and is left to judge it. */
function isPlainJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const value = contentType.toLowerCase().replace(/\s+/g, '');
  return value === 'application/json' || value === 'application/json;charset=utf-8';
}
