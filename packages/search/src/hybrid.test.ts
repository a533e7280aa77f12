import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, sectionPassage, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocs, heldModels, type PassageReranker, type QueryEmbedder, searchAll } from './index.js';

/**
 * A deterministic embedder that honours the interface: words are folded to
 * a concept (a tiny hand thesaurus, standing in for what a real model learns)
 * and hashed into a bag-of-concepts vector of unit length. Real models are
 * tested end to end in the CLI's tests; this one lets search be tested for
 * what it does with vectors, whatever model made them.
 */
class ConceptEmbedder implements QueryEmbedder {
  readonly dimensions = 64;
  readonly id: string;
  calls = 0;
  /** The texts of each call, in order. */
  asked: string[][] = [];
  constructor(id = 'test:concepts:64') {
    this.id = id;
  }
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls += 1;
    this.asked.push([...texts]);
    return texts.map((text) => {
      const vector = new Float32Array(this.dimensions);
      for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
        const concept = CONCEPTS[word] ?? word;
        let hash = 0;
        for (const c of concept) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
        const slot = hash % this.dimensions;
        vector[slot] = (vector[slot] ?? 0) + 1;
      }
      const norm = Math.hypot(...vector) || 1;
      return vector.map((v) => v / norm);
    });
  }
}

const CONCEPTS: Record<string, string> = {
  cors: 'crossorigin',
  origin: 'crossorigin',
  origins: 'crossorigin',
  crosssite: 'crossorigin',
  browser: 'crossorigin',
  clock: 'time',
  timers: 'time',
  wait: 'time',
  waiting: 'time',
  conflicts: 'issues',
  clashes: 'issues',
};

/** Scores a passage by how many of the query's words it holds; logs what it was asked. */
class OverlapReranker implements PassageReranker {
  readonly id = 'test:overlap';
  asked: number[] = [];
  async score(query: string, documents: readonly string[]): Promise<number[]> {
    this.asked.push(documents.length);
    const words = new Set(query.toLowerCase().match(/[a-z]+/g) ?? []);
    return documents.map((d) => (d.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => words.has(w)).length);
  }
}

function chunk(breadcrumb: string[], content: string) {
  return { breadcrumb, level: breadcrumb.length, content, tokens: Math.ceil(content.length / 4) };
}

const web: DocumentInput[] = [
  {
    path: 'cors.md',
    title: 'CORS',
    content: '# CORS',
    chunks: [chunk(['CORS'], 'Enable CORS so a browser app served from another origin can call the API.')],
  },
  {
    path: 'routing.md',
    title: 'Routing',
    content: '# Routing',
    chunks: [
      chunk(['Routing'], 'Routes map a path and a method to a handler.'),
      chunk(['Routing', 'Params'], 'Path params are read from the request.'),
    ],
  },
];
const testing: DocumentInput[] = [
  {
    path: 'timers.md',
    title: 'Timers',
    content: '# Timers',
    chunks: [chunk(['Timers'], 'Fake timers let a test advance the clock without waiting.')],
  },
  {
    path: 'requests.md',
    title: 'Requests',
    content: '# Requests',
    chunks: [chunk(['Requests'], 'Mock each request a test makes.')],
  },
];

/**
 * A section the question ("peer issues") names and means, and one an alternative ("strict peer rules") names and the
 * question means a little (conflicts and clashes are issues to the embedder).
 */
const tooling: DocumentInput[] = [
  {
    path: 'errors.md',
    title: 'Errors',
    content: '# Errors',
    chunks: [chunk(['Errors', 'Peer issues'], 'Peer issues: a peer of a package is missing.')],
  },
  {
    path: 'settings.md',
    title: 'Settings',
    content: '# Settings',
    chunks: [chunk(['Settings', 'Strict peer rules'], 'Strict peer rules settle peer conflicts and clashes.')],
  },
  {
    path: 'install.md',
    title: 'Install',
    content: '# Install',
    chunks: [
      chunk(['Install'], 'Install every package of the project.'),
      chunk(['Install', 'Lockfile'], 'The lockfile pins each version.'),
    ],
  },
];

let dir: string;
let store: PackageStore;
const embedder = new ConceptEmbedder();

async function install(name: string, documents: DocumentInput[], by: QueryEmbedder | undefined) {
  const file = path.join(dir, `${name}.db`);
  await writePackage(file, { name, version: '1.0.0' }, documents);
  const { installed } = await store.install(file, { move: true });
  if (!by) return;
  const job = await store.vectorJob(installed, { id: by.id, dimensions: by.dimensions });
  const sections = job.next(100);
  const vectors = await by.embed(sections.map(sectionPassage), 'document');
  job.save(sections.map((s, i) => ({ id: s.id, vector: vectors[i] as Float32Array })));
  await job.finish();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-hybrid-'));
  store = new PackageStore(path.join(dir, 'home'));
  await install('webframe', web, embedder);
  await install('testkit', testing, embedder);
  await install('tooling', tooling, embedder);
  await install('plain', web, undefined);
  await install('elsewhere', web, new ConceptEmbedder('test:other-model:64'));
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('hybrid retrieval', () => {
  it('without models answers lexically, as before, and says the vectors went unused', async () => {
    const plain = await getDocs(store, 'webframe', 'enable CORS', { mode: 'lexical' });
    const auto = await getDocs(store, 'webframe', 'enable CORS');
    expect(plain.retrieval).toEqual({ mode: 'lexical' });
    expect(auto.results).toEqual(plain.results);
    expect(auto.retrieval).toEqual({
      mode: 'lexical',
      notes: ['webframe@1.0.0 answered lexically: it has vectors from test:concepts:64, and no embedder is configured'],
    });
    // A package without vectors has nothing to say unless hybrid was asked for.
    expect((await getDocs(store, 'plain', 'enable CORS')).retrieval).toEqual({ mode: 'lexical' });
    expect((await getDocs(store, 'plain', 'enable CORS', { mode: 'hybrid' })).retrieval.notes).toEqual([
      'plain@1.0.0 answered lexically: it has no vectors (add them with docs embed plain)',
    ]);
  });

  it('finds by meaning a section that shares no word with the question, and says hybrid answered', async () => {
    const question = 'crosssite origins';
    const lexical = await getDocs(store, 'webframe', question, { mode: 'lexical', models: heldModels({ embedder }) });
    expect(lexical.results[0]?.path).not.toBe('cors.md');
    const hybrid = await getDocs(store, 'webframe', question, { models: heldModels({ embedder }) });
    expect(hybrid.retrieval).toEqual({ mode: 'hybrid', embedder: 'test:concepts:64' });
    expect(hybrid.results[0]).toMatchObject({ path: 'cors.md', score: 1 });
    for (const r of hybrid.results) expect(r.score).toBeGreaterThanOrEqual(0);
  });

  it('a package embedded with a model that is not here answers lexically and says which', async () => {
    const answer = await getDocs(store, 'elsewhere', 'enable CORS', { models: heldModels({ embedder }) });
    expect(answer.retrieval).toEqual({
      mode: 'lexical',
      notes: [
        'elsewhere@1.0.0 answered lexically: its vectors were made by test:other-model:64, and the embedder here is test:concepts:64',
      ],
    });
    expect(answer.results[0]?.path).toBe('cors.md');
  });

  it('embeds the query once for every library that shares the model', async () => {
    const counting = new ConceptEmbedder();
    await searchAll(store, 'advance the clock', { models: heldModels({ embedder: counting }) });
    expect(counting.calls).toBe(1);
  });

  it('with alternativeVectorWeight, embeds every phrasing in the one call and fuses each with the sections nearest its own vector', async () => {
    const counting = new ConceptEmbedder();
    const ask = (mode: 'lexical' | 'hybrid') =>
      getDocs(store, 'webframe', 'path handler', {
        mode,
        models: heldModels({ embedder: counting }),
        alternatives: ['crosssite origins'],
        format: 'index',
        ranking: { drop: 0, alternativeVectorWeight: 0.5 },
      });
    // Only the alternative's meaning reaches the CORS section: no word of either phrasing is in it.
    expect((await ask('lexical')).results.map((r) => r.path)).not.toContain('cors.md');
    const hybrid = await ask('hybrid');
    expect(counting.asked).toEqual([['path handler', 'crosssite origins']]);
    expect(hybrid.retrieval).toEqual({ mode: 'hybrid', embedder: 'test:concepts:64' });
    // Second, scored by the alternative's vector at its weight (answered lexically beside a hybrid topic, it scored 0).
    expect(hybrid.results.map((r) => r.path).slice(0, 2)).toEqual(['routing.md', 'cors.md']);
    expect(hybrid.results[1]?.score).toBeGreaterThan(0.5);
  });

  it('by default embeds the question alone: alternatives answer lexically beside it', async () => {
    const counting = new ConceptEmbedder();
    const answer = await getDocs(store, 'webframe', 'path handler', {
      models: heldModels({ embedder: counting }),
      alternatives: ['crosssite origins'],
      format: 'index',
      ranking: { drop: 0 },
    });
    expect(counting.asked).toEqual([['path handler']]);
    expect(answer.results.find((r) => r.path === 'cors.md')?.score ?? 0).toBe(0);
  });

  it("with alternatives, the question's vector counts once per section: it does not lift a section an alternative names over the one the question names and means", async () => {
    const ask = (mode: 'lexical' | 'hybrid') =>
      getDocs(store, 'tooling', 'peer issues', {
        mode,
        models: heldModels({ embedder }),
        alternatives: ['strict peer rules'],
        format: 'index',
        ranking: { drop: 0 },
      });
    const lexical = await ask('lexical');
    const hybrid = await ask('hybrid');
    expect(hybrid.retrieval.mode).toBe('hybrid');
    expect(lexical.results.map((r) => r.path).slice(0, 2)).toEqual(['errors.md', 'settings.md']);
    // Fused into the topic's list, the vector lifted the section the alternative led on top of its best score (in
    // `rest`), while the one both retrievers put first could score no more than 1: settings.md came first.
    expect(hybrid.results.map((r) => r.path).slice(0, 2)).toEqual(['errors.md', 'settings.md']);
  });

  it('across libraries, ties in score are broken by the lexical score in hybrid answers as in lexical ones', async () => {
    // Both libraries hold the one word, so both tops scale to the same score: the tie-break decides their order.
    const ask = (mode: 'lexical' | 'hybrid') =>
      searchAll(store, 'request', {
        mode,
        models: heldModels({ embedder }),
        libraries: ['webframe', 'testkit'],
        format: 'index',
      });
    const lexical = await ask('lexical');
    const hybrid = await ask('hybrid');
    expect(hybrid.retrieval.mode).toBe('hybrid');
    expect(hybrid.results.map((r) => [r.library, r.path])).toEqual(lexical.results.map((r) => [r.library, r.path]));
  });

  it('across libraries, hybrid answers are scaled by term coverage as lexical ones are: an off-topic library stays under 0.5', async () => {
    const models = heldModels({ embedder });
    const answer = await searchAll(store, 'advance the clock without waiting', {
      models,
      libraries: ['webframe', 'testkit'],
      format: 'index',
      ranking: { drop: 0 },
    });
    expect(answer.retrieval.mode).toBe('hybrid');
    expect(answer.results[0]).toMatchObject({ library: 'testkit@1.0.0', path: 'timers.md', score: 1 });
    const offTopic = answer.results.filter((r) => r.library === 'webframe@1.0.0');
    expect(offTopic.length).toBeGreaterThan(0);
    for (const r of offTopic) expect(r.score).toBeLessThan(0.5);
  });

  it('a re-ranker reorders the first results, each position keeping its score, and is named', async () => {
    const reranker = new OverlapReranker();
    const models = heldModels({ embedder, reranker });
    const without = await getDocs(store, 'webframe', 'path params request handler', { models, rerank: false });
    const withIt = await getDocs(store, 'webframe', 'path params request handler', { models, format: 'index' });
    expect(withIt.retrieval).toMatchObject({ mode: 'hybrid', reranker: 'test:overlap' });
    expect(without.retrieval.reranker).toBeUndefined();
    expect(reranker.asked).toEqual([withIt.total]);
    expect(withIt.results[0]?.breadcrumb).toEqual(['Routing', 'Params']);
    const scores = withIt.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('a re-ranker that fails leaves the order as it was and says so; it never empties the answer', async () => {
    const broken: PassageReranker = {
      id: 'test:broken',
      score: async () => {
        throw new Error('endpoint unreachable');
      },
    };
    const answer = await getDocs(store, 'webframe', 'path params request handler', {
      models: heldModels({ embedder, reranker: broken }),
    });
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.retrieval.notes).toEqual(['no re-ranking: test:broken failed: endpoint unreachable']);
  });

  it('an embedder that fails answers lexically and says why', async () => {
    const failing: QueryEmbedder = {
      id: 'test:concepts:64',
      dimensions: 64,
      embed: async () => {
        throw new Error('model file is damaged');
      },
    };
    const answer = await getDocs(store, 'webframe', 'enable CORS', { models: heldModels({ embedder: failing }) });
    expect(answer.retrieval).toEqual({
      mode: 'lexical',
      notes: ['webframe@1.0.0 answered lexically: test:concepts:64 could not embed the query: model file is damaged'],
    });
    expect(answer.results[0]?.path).toBe('cors.md');
  });

  it('rrf fusion is an option, and bad hybrid options are refused by name', async () => {
    const answer = await getDocs(store, 'webframe', 'crosssite origins', {
      models: heldModels({ embedder }),
      ranking: { fusion: 'rrf' },
    });
    expect(answer.results[0]?.path).toBe('cors.md');
    await expect(getDocs(store, 'webframe', 'x', { ranking: { vectorWeight: 2 } })).rejects.toThrow(/vectorWeight/);
    await expect(getDocs(store, 'webframe', 'x', { mode: 'semantic' as 'hybrid' })).rejects.toThrow(/mode/);
  });
});
