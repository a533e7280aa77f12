import type { SentSections } from '@docs/search';
import type { ToolCall } from './tool.js';

/** How much a SessionMemory keeps. */
export interface SessionMemoryLimits {
  /** Tokens of content remembered, the most recently sent first. @default 50000 */
  readonly tokens?: number;
  /** Sections remembered. @default 1000 */
  readonly sections?: number;
}

/**
 * The sections one MCP session was sent in full, so that get_docs and search_all list them by title and path instead
 * of sending them again (a call with `fresh: true` sends them anyway). It keeps the most recently sent sections, up
 * to `tokens` of content and `sections` of them, and forgets the oldest first: a host compacts an agent's context as
 * it fills, and a section sent long ago, maybe gone from it since, is better sent again than named.
 *
 * @example
 * const memory = new SessionMemory();
 * await registerDocsTools(server, { store, memory: () => memory }); // a stdio server: one process, one session
 */
export class SessionMemory implements SentSections {
  readonly #limits: Required<SessionMemoryLimits>;
  /** Key → tokens, in the order sent (a section sent again moves to the end). */
  readonly #sent = new Map<string, number>();
  #tokens = 0;

  constructor(limits: SessionMemoryLimits = {}) {
    this.#limits = { tokens: limits.tokens ?? 50_000, sections: limits.sections ?? 1000 };
  }

  has(key: string): boolean {
    return this.#sent.has(key);
  }

  add(key: string, tokens: number): void {
    this.#forget(key);
    this.#sent.set(key, tokens);
    this.#tokens += tokens;
    for (const [oldest, size] of this.#sent) {
      if (this.#tokens <= this.#limits.tokens && this.#sent.size <= this.#limits.sections) break;
      // The section just sent is kept even when it alone is over the limit: it is in the agent's context now.
      if (oldest === key) break;
      this.#forget(oldest, size);
    }
  }

  /** Sections remembered now. */
  get size(): number {
    return this.#sent.size;
  }

  #forget(key: string, size = this.#sent.get(key)): void {
    if (size === undefined || !this.#sent.delete(key)) return;
    this.#tokens -= size;
  }
}

/**
 * A SessionMemory per session id, for a server whose transport serves many sessions (Streamable HTTP, where each
 * session's requests carry its `Mcp-Session-Id`). It holds at most `sessions` of them and forgets the one used
 * least recently first; that session's next call then starts afresh, answered in full.
 *
 * @example
 * const memories = new SessionMemories();
 * await registerDocsTools(server, { store, memory: (session) => (session ? memories.of(session) : undefined) });
 */
export class SessionMemories {
  readonly #sessions: number;
  readonly #limits: SessionMemoryLimits;
  /** Session id → memory, least recently used first. */
  readonly #memories = new Map<string, SessionMemory>();

  constructor(sessions = 100, limits: SessionMemoryLimits = {}) {
    this.#sessions = sessions;
    this.#limits = limits;
  }

  /** The memory of this session, made when it has none. */
  of(session: string): SessionMemory {
    const known = this.#memories.get(session);
    this.#memories.delete(session);
    const memory = known ?? new SessionMemory(this.#limits);
    this.#memories.set(session, memory);
    for (const oldest of this.#memories.keys()) {
      if (this.#memories.size <= this.#sessions) break;
      this.#memories.delete(oldest);
    }
    return memory;
  }

  /** Sessions remembered now. */
  get size(): number {
    return this.#memories.size;
  }
}

/**
 * The `sent` search option of a tool call: its session's memory, or for a call that asks for everything afresh
 * (`fresh: true`) one where nothing counts as sent and what it sends is remembered as any call's is; none without
 * a memory.
 */
export function sentOption(call: ToolCall | undefined, fresh: boolean): { sent?: SentSections } {
  const sent = call?.sent;
  if (!sent) return {};
  return { sent: fresh ? { has: () => false, add: (key, tokens) => sent.add(key, tokens) } : sent };
}
