import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { getDocs, MAX_ALTERNATIVES, searchAll } from './index.js';

let dir: string;
let store: PackageStore;

function chunk(breadcrumb: string[], content: string) {
  return { breadcrumb, level: breadcrumb.length, content, tokens: Math.ceil(content.length / 4) };
}

function page(file: string, title: string, sections: Array<[string[], string]>): DocumentInput {
  return {
    path: file,
    title,
    content: sections.map(([b, c]) => `${'#'.repeat(b.length)} ${b.at(-1)}\n\n${c}`).join('\n\n'),
    chunks: sections.map(([b, c]) => chunk(b, c)),
  };
}

// A small web framework's docs, shaped like FastAPI's (the sentences are FastAPI's, shortened): the
// answer to "run code when the app starts up and shuts down" is the Lifespan section, which never says
// "run"; a testing page's heading holds the question's own words, and a debugging page says "run your code".
const framework: DocumentInput[] = [
  page('advanced/events.md', 'Lifespan Events', [
    [
      ['Lifespan Events'],
      'You can define logic (code) that should be executed before the application starts up. This code will be executed once, before the application starts receiving requests. The same way, you can define logic (code) that should be executed when the application is shutting down. It covers the whole application lifespan.',
    ],
    [
      ['Lifespan Events', 'Use Case'],
      'Imagine some machine learning models that you want to use to handle requests. Loading the model can take quite some time, because it has to read a lot of data from disk.',
    ],
    [
      ['Lifespan Events', 'Lifespan'],
      'You can define this startup and shutdown logic using the lifespan parameter of the app, and a context manager. We create an async function lifespan() with yield. This code will be executed before the application starts taking requests, during the startup. Right after the yield, we unload the model: this code will be executed after the application finishes handling requests, right before the shutdown.',
    ],
  ]),
  page('advanced/testing-events.md', 'Testing Events: lifespan and startup - shutdown', [
    [
      ['Testing Events: lifespan and startup - shutdown'],
      'When you need lifespan to run in your tests, you can use the TestClient with a with statement. For the deprecated startup and shutdown events, you can use the TestClient as follows.',
    ],
  ]),
  page('tutorial/debugging.md', 'Debugging', [
    [['Debugging'], 'You can connect the debugger in your editor.'],
    [
      ['Debugging', 'Run your code with your debugger'],
      'Because you are running the app directly from your code, you can run your code from the debugger, which starts the server.',
    ],
  ]),
  page('tutorial/middleware.md', 'Middleware', [
    [['Middleware'], 'A middleware is a function that works with every request before it is processed.'],
    [['Middleware', 'CORS'], 'Enable CORS with CORSMiddleware so a browser on another origin can call the API.'],
  ]),
];

const testing: DocumentInput[] = [
  page('guide/timers.md', 'Timers', [
    [['Timers'], 'Fake timers replace setTimeout so tests can mock timers without waiting for the app.'],
    [['Timers', 'Snapshot'], 'A snapshot of the app state after the timers ran.'],
  ]),
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-alternatives-'));
  store = new PackageStore(path.join(dir, 'home'));
  for (const [name, docs] of [
    ['webapi', framework],
    ['testkit', testing],
  ] as const) {
    const file = path.join(dir, `${name}.db`);
    await writePackage(file, { name, version: '1.0.0' }, docs);
    await store.install(file, { move: true });
  }
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const question = 'run code when the app starts up and shuts down';

describe('alternative phrasings', () => {
  it('lift the section named in the docs’ own terms', async () => {
    // As in FastAPI's docs, the testing page holds the question's words and "lifespan events" both, so
    // it stays first; the Lifespan section, third for the question alone, comes right after it.
    const alone = await getDocs(store, 'webapi', question, { format: 'index' });
    const before = alone.results.findIndex((r) => r.heading === 'Lifespan');
    const answer = await getDocs(store, 'webapi', question, { format: 'index', alternatives: ['lifespan events'] });
    const after = answer.results.findIndex((r) => r.heading === 'Lifespan');
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThanOrEqual(0);
    expect(after).toBeLessThan(before);
    // Each result once, whichever phrasings found it.
    const keys = answer.results.map((r) => `${r.path}#${r.breadcrumb.join('>')}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('put a section first when the phrasings agree on it', async () => {
    const answer = await getDocs(store, 'webapi', 'code executed before the application starts up', {
      format: 'index',
      alternatives: ['lifespan parameter', 'startup and shutdown logic'],
    });
    expect(answer.results[0]?.breadcrumb).toEqual(['Lifespan Events', 'Lifespan']);
    expect(answer.phrasings?.every((p) => p.results.includes(1))).toBe(true);
  });

  it('find what only an alternative matches, and say which phrasing found what', async () => {
    const answer = await getDocs(store, 'webapi', 'allow my frontend on another port to call me', {
      format: 'index',
      alternatives: ['CORSMiddleware'],
    });
    expect(answer.results[0]?.heading).toBe('CORS');
    expect(answer.phrasings?.map((p) => p.text)).toEqual([
      'allow my frontend on another port to call me',
      'CORSMiddleware',
    ]);
    expect(answer.phrasings?.[1]).toMatchObject({ terms: ['corsmiddleware'], results: [1] });
    expect(answer.phrasings?.[1]?.strength).toBe(1);
    const nothing = await getDocs(store, 'webapi', 'zzzqqq', { format: 'index', alternatives: ['CORSMiddleware'] });
    expect(nothing.status).toBe('ok');
    expect(nothing.results.map((r) => r.heading)).toEqual(['CORS']);
  });

  it('answer one list under one budget across libraries', async () => {
    const answer = await searchAll(store, question, {
      alternatives: ['lifespan events', 'startup shutdown'],
      tokens: 120,
    });
    expect(answer.results[0]?.library).toBe('webapi@1.0.0');
    expect(answer.totalTokens).toBeLessThanOrEqual(120);
    expect(answer.phrasings).toHaveLength(3);
  });

  it('leave out an alternative that repeats the topic or another', async () => {
    const answer = await getDocs(store, 'webapi', 'lifespan', {
      alternatives: ['Lifespan ', 'lifespan  events', 'Lifespan Events'],
    });
    expect(answer.phrasings?.map((p) => p.text)).toEqual(['lifespan', 'lifespan  events']);
  });

  test.each([
    ['too many', Array.from({ length: MAX_ALTERNATIVES + 1 }, (_, i) => `phrase ${i}`), /at most 4 phrasings, got 5/],
    ['one too long', ['x'.repeat(201)], /alternatives\[0\] has 201 characters, over the 200 allowed/],
    ['a blank one', ['lifespan', '  '], /alternatives\[1\] is blank/],
  ])('refuse %s with a message naming it, in both searches', async (_case, alternatives, message) => {
    await expect(getDocs(store, 'webapi', 'lifespan', { alternatives })).rejects.toThrow(message);
    await expect(getDocs(store, 'not-installed', 'lifespan', { alternatives })).rejects.toThrow(message);
    await expect(searchAll(store, 'lifespan', { alternatives })).rejects.toThrow(message);
  });
});

describe('confidence', () => {
  it('is strong when the best results hold the question', async () => {
    const answer = await getDocs(store, 'webapi', 'enable CORS middleware', { format: 'index' });
    expect(answer.confidence).toMatchObject({ weak: false, missing: [], unmentioned: [] });
    expect(answer.confidence?.strength).toBe(1);
    expect(answer.message).not.toMatch(/No section mentions/);
  });

  it('says plainly when no section mentions the question’s rare word, and what came closest', async () => {
    const answer = await searchAll(store, 'how do I enable CORS for my app', {
      format: 'index',
      libraries: ['testkit'],
    });
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.confidence).toMatchObject({ weak: true, unmentioned: ['enable', 'cors'] });
    expect(answer.message).toMatch(/^No section mentions "enable", "cors"; closest: testkit@1\.0\.0 · /);
  });

  it('keeps a library missing the rare word below one that holds it', async () => {
    // Each library's best section holds one of the two words: "app" (in both libraries) or "cors" (in one).
    const answer = await searchAll(store, 'cors app', { format: 'index' });
    expect(answer.results[0]?.library).toBe('webapi@1.0.0');
    expect(answer.results[0]?.heading).toBe('CORS');
    const testkit = answer.results.find((r) => r.library === 'testkit@1.0.0');
    expect(testkit === undefined || testkit.score < 1).toBe(true);
  });

  it('is weak when nothing matched at all', async () => {
    const answer = await getDocs(store, 'webapi', 'zzzqqq');
    expect(answer.status).toBe('no-match');
    expect(answer.confidence).toMatchObject({ strength: 0, weak: true, unmentioned: ['zzzqqq'] });
  });
});
