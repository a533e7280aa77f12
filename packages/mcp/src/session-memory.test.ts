import type { PackageStore } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOf, TestKit, textOf } from './__tests__/kit.js';
import { SessionMemories, SessionMemory } from './index.js';

// Within one MCP session a section sent in full is not sent again: it is listed by its header with "sent earlier",
// and its budget goes to the next results. `fresh: true` opts out; a server without a memory answers every call in
// full; two sessions never share one.

const kit = new TestKit();
let store: PackageStore;

/**
 * Pages of one section of ~300 tokens each, all about timers, so one question finds many and a budget holds a few
 * (one page each, so none is joined to another into one result).
 */
const timers = Array.from({ length: 8 }, (_, i) =>
  documentOf(`guide/timers-${i}.md`, `Timers ${i}`, [
    [
      `Timer topic ${i}`,
      `Fake timers part ${i}: mock timers advance the clock. ${Array.from({ length: 70 }, (_, j) => `w${i}x${j}`).join(' ')}`,
    ],
  ]),
);

beforeAll(async () => {
  store = await kit.storeWith([{ name: 'clock', version: '1.0.0', documents: timers }]);
});

afterAll(() => kit.cleanup());

/** The parts of each result's text: its header line, and its content when it has one. */
function sectionsIn(text: string): Array<{ header: string; content: string }> {
  return text
    .split(/^(?=## )/m)
    .filter((part) => part.startsWith('## '))
    .map((part) => {
      const [header = '', ...rest] = part.split('\n');
      return { header, content: rest.join('\n').trim() };
    });
}

const ask = { library: 'clock', topic: 'fake timers', tokens: 1000 };

describe('get_docs and search_all in one session', () => {
  it('send a section once: asked again, it is listed as sent earlier and the budget goes to the next ones', async () => {
    const memory = new SessionMemory();
    const { call } = await kit.connect({ store, memory: () => memory });
    const first = sectionsIn(textOf(await call('get_docs', ask)));
    expect(first.length).toBeGreaterThan(1);
    for (const s of first) expect(s.content).not.toBe('');

    const againText = textOf(await call('get_docs', ask));
    const again = sectionsIn(againText);
    const listed = again.filter((s) => s.header.endsWith(', sent earlier)'));
    // The same headers as the first answer sent, without their content.
    expect(listed.map((s) => s.header.replace(', sent earlier)', ')'))).toEqual(first.map((s) => s.header));
    for (const s of listed) expect(s.content).toBe('');
    // The budget went to sections the first answer did not send.
    const fresh = again.filter((s) => s.content !== '');
    expect(fresh.length).toBeGreaterThan(0);
    for (const s of fresh) expect(first.map((f) => f.header)).not.toContain(s.header);
    expect(againText).toContain('were sent in full earlier in this session and are not repeated');
    expect(againText).toContain('get_docs with fresh: true sends them again');

    // search_all in the same session knows what get_docs sent.
    const all = sectionsIn(textOf(await call('search_all', { topic: 'fake timers', tokens: 1000 })));
    expect(all.filter((s) => s.header.endsWith(', sent earlier)')).length).toBeGreaterThanOrEqual(first.length);
  });

  it('send everything again with fresh: true', async () => {
    const memory = new SessionMemory();
    const { call } = await kit.connect({ store, memory: () => memory });
    const first = textOf(await call('get_docs', ask));
    expect(textOf(await call('get_docs', { ...ask, fresh: true }))).toBe(first);
    expect(textOf(await call('search_all', { topic: 'fake timers', tokens: 1000, fresh: true }))).not.toContain(
      'sent earlier',
    );
  });

  it('are answered in full every time without a memory, as the CLI is', async () => {
    const { call } = await kit.connect({ store });
    const first = textOf(await call('get_docs', ask));
    expect(textOf(await call('get_docs', ask))).toBe(first);
  });

  it('never share a memory between sessions, and have none without one', async () => {
    const memories = new SessionMemories();
    const context = { store, memory: (session: string | undefined) => (session ? memories.of(session) : undefined) };
    // Three connections whose tools share the memories, as an HTTP server's do: two sessions, and one without a session.
    const a = await kit.connect(context, 'session-a');
    const b = await kit.connect(context, 'session-b');
    const none = await kit.connect(context);
    const first = textOf(await a.call('get_docs', ask));
    expect(textOf(await a.call('get_docs', ask))).toContain('sent earlier');
    expect(textOf(await b.call('get_docs', ask))).toBe(first);
    expect(textOf(await none.call('get_docs', ask))).toBe(first);
    expect(textOf(await none.call('get_docs', ask))).toBe(first);
    expect(memories.size).toBe(2);
  });
});

describe('SessionMemory', () => {
  it('keeps the most recently sent sections within its tokens, forgetting the oldest first', () => {
    const memory = new SessionMemory({ tokens: 100 });
    memory.add('a', 40);
    memory.add('b', 40);
    memory.add('a', 40); // sent again: now the most recent
    memory.add('c', 40);
    expect(['a', 'b', 'c'].filter((k) => memory.has(k))).toEqual(['a', 'c']);
    // One section over the whole limit is kept: it is in the agent's context now.
    memory.add('huge', 500);
    expect(['a', 'c', 'huge'].filter((k) => memory.has(k))).toEqual(['huge']);
    expect(memory.size).toBe(1);
  });

  it('keeps at most its number of sections', () => {
    const memory = new SessionMemory({ sections: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) memory.add(key, 1);
    expect(['a', 'b', 'c', 'd', 'e'].filter((k) => memory.has(k))).toEqual(['c', 'd', 'e']);
  });
});

describe('SessionMemories', () => {
  it('holds at most its number of sessions, forgetting the one used least recently', () => {
    const memories = new SessionMemories(2);
    const a = memories.of('a');
    memories.of('b');
    expect(memories.of('a')).toBe(a); // used again: b is now the least recent
    memories.of('c');
    expect(memories.size).toBe(2);
    expect(memories.of('a')).toBe(a);
    const b = memories.of('b');
    expect(b.size).toBe(0); // forgotten, so made afresh
  });
});
