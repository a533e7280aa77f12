import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DocumentInput, PackageStore, writePackage } from '@docs/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocs, type SearchOptions, searchAll } from './index.js';

// Small packages built for one behaviour each, so a ranking change that loses
// one of them fails here rather than only in the evaluation.
let dir: string;
let store: PackageStore;

const page = (
  path: string,
  title: string,
  sections: Array<[string[], string]>,
  links: string[] = [],
): DocumentInput => ({
  path,
  title,
  links,
  content: sections.map(([, text]) => text).join('\n\n'),
  chunks: sections.map(([breadcrumb, content]) => ({
    breadcrumb,
    level: breadcrumb.length,
    content,
    tokens: content.split(/\s+/).length,
  })),
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docs-ranking-'));
  store = new PackageStore(path.join(dir, 'home'));
  const packages: Array<[string, DocumentInput[]]> = [
    [
      'schemalib',
      [
        page('CHANGELOG.md', 'Changelog', [[['2.0.0'], 'Added z.discriminatedUnion for discriminated union schemas.']]),
        page('api.md', 'API', [
          [
            ['Discriminated unions'],
            'Use z.discriminatedUnion with a discriminator key to parse discriminated union schemas quickly.',
          ],
          [['Objects'], 'Define object schemas with z.object and their keys.'],
        ]),
      ],
    ],
    [
      'pkgmanager',
      [
        page('settings.md', 'Settings', [
          [
            ['allowBuilds'],
            `Packages whose build scripts are not allowed fail the install with ERR_PNPM_IGNORED_BUILDS. ${'List them in the allowBuilds map of the workspace settings file. '.repeat(4)}`,
          ],
        ]),
        page('cli/add.md', 'add', [[['--allow-build'], 'Allow the esbuild script.']]),
      ],
    ],
    [
      'tutorials',
      [
        page('react.md', 'React', [
          [
            ['Create a router'],
            'Create a router with one query procedure that returns a greeting for the name it is given, then export its type.',
          ],
        ]),
        page('vue.md', 'Vue', [
          [
            ['Create a router'],
            // The same passage: a copy saying more than the first would not be moved (near-duplicates.ts).
            'Create a router with one query procedure that returns a greeting for the name it is given, then export its type.',
          ],
        ]),
        page('fetch.md', 'Fetch', [
          [
            ['Create the router'],
            `Create a router: each procedure is a query or a mutation. ${'Adapters differ in how requests reach it. '.repeat(8)}`,
          ],
        ]),
      ],
    ],
    [
      'schemakit',
      [
        page('api/StringIssue.md', 'schemakit API', [
          [['schemakit API', 'StringIssue'], 'Interface `StringIssue`: the issue a failed string check reports.'],
          [
            ['schemakit API', 'StringIssue', 'StringIssue.validation'],
            'Property of `StringIssue`. validation: string;',
          ],
        ]),
        page('api/StringSchema.md', 'schemakit API', [
          [['schemakit API', 'StringSchema'], 'Class `StringSchema`: a schema for strings.'],
          [
            ['schemakit API', 'StringSchema', 'StringSchema.email'],
            'Method of `StringSchema`. email(message?: string): StringSchema;',
          ],
          [
            ['schemakit API', 'StringSchema', 'StringSchema.url'],
            'Method of `StringSchema`. url(message?: string): StringSchema;',
          ],
        ]),
      ],
    ],
    [
      'webframe',
      [page('cors.md', 'CORS', [[['CORS'], 'Enable CORS with the cors middleware for a browser on another origin.']])],
    ],
    [
      'webbind',
      [
        page('guide.md', 'Guide', [
          [
            ['Guide', 'Bind the body twice'],
            'Binding reads the request body once: to bind it into two structs, keep the body. JSON, XML and forms alike.',
          ],
        ]),
        page('api/Context.md', 'webbind API', [
          [
            ['webbind API', 'Context', 'Context.ShouldBindJSON'],
            'Method of `Context`. Binds the JSON request body into the struct it is given.',
          ],
          [
            ['webbind API', 'Context', 'Context.ShouldBindBodyWithJSON'],
            'Method of `Context`. Binds the JSON request body into a struct and keeps the body for the next bind.',
          ],
        ]),
      ],
    ],
    ['unrelated', [page('browser.md', 'Browser mode', [[['Browser'], 'Run tests in a real browser window.']])]],
    [
      'validator',
      [
        page('v2/index.md', 'Release notes', [
          [['Upgraded v.taggedUnion()'], 'v.taggedUnion is faster now and accepts more kinds of tag.'],
        ]),
        page('api.md', 'API', [
          [
            ['Tagged unions'],
            'v.taggedUnion picks the schema by the value of the tag key. Give it the key and the schemas.',
          ],
        ]),
      ],
    ],
    [
      'timerlib',
      [
        page('api.md', 'API', [
          [['Fake timers'], 'Fake timers replace the timer functions with fake timers you control.'],
          [['Fake timers', 'useFakeTimers'], 'Turns fake timers on: timers wait until you advance fake timers.'],
          [['Fake timers', 'useRealTimers'], 'Turns fake timers off and restores the real timers.'],
          [['Fake timers', 'advanceTimers'], 'Moves fake timers forward, running due timers.'],
        ]),
        page('guide/timers.md', 'Timers', [[['Timers'], 'Fake timers make code with long timers instant to test.']]),
      ],
    ],
    [
      'httpclient',
      [
        page('third-party.md', 'Third party packages', [
          [['Third party packages', 'httpclient-retries'], 'A plugin that retries failed requests with backoff.'],
        ]),
        page('advanced/transports.md', 'Transports', [
          [
            ['Transports'],
            `Connection retries are also available on the transport. ${'Requests are sent through the transport you give the client. '.repeat(3)} transport = Transport(retries=1)`,
          ],
        ]),
        page('async.md', 'Async', [
          [['Async', 'Explicit transports'], 'Pass an async transport: transport = AsyncTransport(retries=1).'],
        ]),
        page('history.md', 'History', [
          [
            ['History'],
            `${'The project grew out of a request library and kept its interface. '.repeat(30)} Early retries were removed.`,
          ],
        ]),
      ],
    ],
    [
      // A loader's registration functions, as pyyaml's: one name is all of "add a constructor", one only part of it.
      'yamlish',
      [
        page('api/index.md', 'yamlish API', [
          [['yamlish API', 'add_multi_constructor'], 'Add a multi-constructor for the given tag prefix.'],
          [['yamlish API', 'add_constructor'], 'Add a constructor for the given tag: a function that makes a value.'],
        ]),
      ],
    ],
    [
      'yamlsafe',
      [
        page('api/index.md', 'yamlsafe API', [
          [['yamlsafe API', 'load'], 'Parse a YAML file or string and return the object it describes.'],
          [
            ['yamlsafe API', 'safe_load'],
            'Parse a YAML file or string into basic objects only: safe for untrusted input.',
          ],
        ]),
      ],
    ],
    [
      'dialects',
      [
        // The same section for two databases; the docs' other pages link to the first.
        page('mysql/columns.md', 'Column types', [[['Not null'], 'Mark a column as not null so it is required.']]),
        page('pg/columns.md', 'Column types', [[['Not null'], 'Mark a column as not null so it is required.']]),
        page('pg/tables.md', 'Tables', [[['Tables'], 'A table holds columns.']], ['pg/columns.md']),
        page('pg/indexes.md', 'Indexes', [[['Indexes'], 'An index speeds up reads.']], ['pg/columns.md']),
      ],
    ],
    [
      'querybuilder',
      [
        page('logging.md', 'Logging', [[['Logging'], 'Set the log option to log all queries as they run.']]),
        page('select.md', 'Select', [
          [['Conditional selects'], 'Add a where clause to a select statement when a value is set.'],
        ]),
      ],
    ],
    [
      // A test runner whose tooling entry point (its docs never import it) holds a config type in a question's words.
      'runnerlib',
      [
        page('api/other-entry-points/node/UserConfig.md', 'runnerlib/node API', [
          [['UserConfig', 'UserConfig.watch'], 'watch: boolean; re-run the tests when a method changes'],
        ]),
        page('api/Utils.md', 'runnerlib API', [
          [['Utils', 'Utils.spyOn'], 'spyOn(object, method): creates a spy that records the calls of a method'],
        ]),
      ],
    ],
    [
      // A type checker's plugin shipped inside a library (as `pydantic.mypy`): its only page in a question's words.
      'checkerplugin',
      [
        page('api/other-entry-points/plugin/Transformer.md', 'checkerplugin.plugin API', [
          [['Transformer', 'Transformer.serialize'], 'serialize(model): turn a record into a mapping of its fields'],
        ]),
      ],
    ],
    [
      'recordlib',
      [
        page('api/Record.md', 'recordlib API', [
          [['Record', 'Record.dump'], 'dump(): the record as a mapping of its fields'],
        ]),
      ],
    ],
    [
      // Version 1.0.0, shipping its next major's API beside its own (as zod 3.25 ships `zod/v4`), in the same words.
      'dualapi',
      [
        page('api/v2/StringSchema.md', 'dualapi/v2 API', [
          [['StringSchema', 'StringSchema.email'], 'email(message?: string): StringSchema; checks an email address'],
        ]),
        page('api/StringSchema.md', 'dualapi API', [
          [['StringSchema', 'StringSchema.email'], 'email(message?: string): StringSchema; checks an email address'],
        ]),
      ],
    ],
  ];
  for (const [name, docs] of packages) {
    const file = path.join(dir, `${name}.db`);
    await writePackage(file, { name, version: '1.0.0' }, docs);
    await store.install(file, { move: true });
  }
});

afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ranking', () => {
  it('ranks the page documenting an API above the changelog that mentions it', async () => {
    const answer = await getDocs(store, 'schemalib', 'z.discriminatedUnion', { format: 'index' });
    expect(answer.results[0]?.path).toBe('api.md');
  });

  it("ranks the package's own version above a folder of another major version's docs, in the same words", async () => {
    const answer = await getDocs(store, 'dualapi', 'string email', { format: 'index' });
    expect(answer.results.map((r) => r.path)).toEqual(['api/StringSchema.md', 'api/v2/StringSchema.md']);
    expect(answer.results[1]?.score).toBeCloseTo(0.5, 1);
    const unweighted = await getDocs(store, 'dualapi', 'string email', {
      format: 'index',
      ranking: { historyWeight: 1 },
    });
    expect(unweighted.results[1]?.score).toBeGreaterThan(0.9);
  });

  it('ranks the entry point a user imports above a tooling entry point the docs never import', async () => {
    const question = 'watch calls of a method';
    const answer = await getDocs(store, 'runnerlib', question, { format: 'index' });
    expect(answer.results[0]?.path).toBe('api/Utils.md');
    const unweighted = await getDocs(store, 'runnerlib', question, {
      format: 'index',
      ranking: { entryPointWeight: 1 },
    });
    expect(unweighted.results[0]?.path).toBe('api/other-entry-points/node/UserConfig.md');
  });

  it("keeps a tooling entry point's weight across libraries when it is its library's best answer", async () => {
    const question = 'record as a mapping of its fields';
    const answer = await searchAll(store, question, { format: 'index', ranking: { drop: 0 } });
    expect(answer.results.map((r) => r.library)).toEqual(['recordlib@1.0.0', 'checkerplugin@1.0.0']);
    // Its library's best, yet half of what it would be without the weight: normalising within the library does not
    // lift it back to 1.
    expect(answer.results[1]?.score).toBeLessThan(0.6);
    const unweighted = await searchAll(store, question, { format: 'index', ranking: { drop: 0, entryPointWeight: 1 } });
    expect(unweighted.results.find((r) => r.library === 'checkerplugin@1.0.0')?.score).toBeGreaterThan(0.9);
  });

  it("does not take a release note's heading naming an API for the section documenting it", async () => {
    const answer = await getDocs(store, 'validator', 'v.taggedUnion', { format: 'index' });
    expect(answer.results.map((r) => r.path)).toEqual(['api.md', 'v2/index.md']);
  });

  it("lists a second page before a page's every section", async () => {
    const answer = await getDocs(store, 'timerlib', 'fake timers', { format: 'index' });
    expect(answer.results.slice(0, 3).map((r) => r.path)).toContain('guide/timers.md');
    const scores = answer.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const crowded = await getDocs(store, 'timerlib', 'fake timers', { format: 'index', ranking: { samePageDecay: 1 } });
    expect(crowded.results.slice(0, 4).map((r) => r.path)).toEqual(['api.md', 'api.md', 'api.md', 'api.md']);
  });

  it('weighs a pasted error code above common words around it', async () => {
    const answer = await getDocs(store, 'pkgmanager', 'ERR_PNPM_IGNORED_BUILDS esbuild', { format: 'index' });
    expect(answer.results[0]?.heading).toBe('allowBuilds');
    // Counted as one plain word, the short section holding "esbuild" would win.
    const flat = await getDocs(store, 'pkgmanager', 'ERR_PNPM_IGNORED_BUILDS esbuild', {
      format: 'index',
      ranking: { identifierWeight: 1 },
    });
    expect(flat.results[0]?.heading).toBe('--allow-build');
  });

  it('finds a dotted name by its last part when the docs write it bare', async () => {
    const answer = await getDocs(store, 'schemalib', 'schema.discriminatedUnion', { format: 'index' });
    expect(answer.results[0]?.heading).toBe('Discriminated unions');
  });

  it('does not spend the answer on the same passage twice, in either format', async () => {
    const topic = 'create router procedure';
    const paths = async (options: SearchOptions) =>
      (await getDocs(store, 'tutorials', topic, options)).results.map((r) => r.path);
    const asRanked = await paths({ format: 'index', ranking: { duplicateThreshold: 1 } });
    const index = await paths({ format: 'index' });
    const full = await paths({ tokens: 2000 });
    const second = asRanked.filter((p) => p === 'react.md' || p === 'vue.md')[1] as string;
    expect(asRanked).toHaveLength(3);
    expect(asRanked.indexOf(second)).toBeLessThan(2);
    // The second copy goes after everything distinct, and both formats list the same sections in the same order.
    expect(index).toEqual([...asRanked.filter((p) => p !== second), second]);
    expect(full).toEqual(index);
  });

  it('keeps the sections whose words answer a one-word question, not only the one whose heading names it', async () => {
    const answer = await getDocs(store, 'httpclient', 'httpclient retries', { format: 'index' });
    // The library's name is left out of the question: one word remains, and every section found holds it.
    expect(answer.query.terms).toEqual(['retries']);
    const paths = answer.results.map((r) => r.path);
    expect(paths).toEqual(['third-party.md', 'advanced/transports.md', 'async.md']);
    // The heading boost still puts the plugin first and leaves the others under 0.3 of it: their words keep them.
    expect(answer.results[1]?.score).toBeLessThan(0.3);
    // A page that mentions the word once in passing is under the drop by its words too.
    expect(
      (await getDocs(store, 'httpclient', 'retries', { format: 'index', ranking: { drop: 0 } })).results.at(-1)?.path,
    ).toBe('history.md');
    const full = await getDocs(store, 'httpclient', 'httpclient retries', { tokens: 2000 });
    expect(full.results.map((r) => r.path)).toEqual(paths);
  });

  it("finds the docs' words for a question asked in other words", async () => {
    // "print" is "log", "every" is "all", "statement" is "query": only synonyms reach the logging page.
    const answer = await getDocs(store, 'querybuilder', 'print every SQL statement that gets executed', {
      format: 'index',
    });
    expect(answer.results[0]?.path).toBe('logging.md');
    const literal = await getDocs(store, 'querybuilder', 'print every SQL statement that gets executed', {
      format: 'index',
      ranking: { synonyms: false },
    });
    expect(literal.results[0]?.path).toBe('select.md');
  });

  it('ranks a section holding the asked word above one holding only a synonym of it', async () => {
    // `validation` is a synonym of `validate`; `email` is the word itself.
    const question = 'validate that a string is an email';
    const answer = await getDocs(store, 'schemakit', question, { format: 'index' });
    expect(answer.results[0]?.heading).toBe('StringSchema.email');
    const alike = await getDocs(store, 'schemakit', question, { format: 'index', ranking: { synonymWeight: 1 } });
    expect(alike.results[0]?.heading).toBe('StringIssue.validation');
  });

  it('takes two words asked one after the other as named by the identifier that joins them', async () => {
    // "bind a JSON" is `…BindJSON`: its heading names both words, though the index holds the identifier as one token.
    // `ShouldBindBodyWithJSON` holds "bind", "body" and "JSON" too, but not "bind" then "JSON".
    const answer = await getDocs(store, 'webbind', 'bind a JSON request body to a struct', { format: 'index' });
    expect(answer.results.map((r) => r.heading)).toEqual([
      'Context.ShouldBindJSON',
      'Bind the body twice',
      'Context.ShouldBindBodyWithJSON',
    ]);
    // Asked the other way round, the words are not the identifier's: the guide's heading names "bind" and "body".
    const reversed = await getDocs(store, 'webbind', 'JSON bind of a request body to a struct', { format: 'index' });
    expect(reversed.results[0]?.heading).toBe('Bind the body twice');
  });

  it('prefers a heading that names the words wholly to one that holds them in a longer joined name', async () => {
    // `add_multi_constructor` holds "add" and "constructor" too, and its shorter text scores a little more; only
    // `add_constructor` is nothing but the question's words. Counted as a whole name (partWeight 1), multi is first.
    const question = 'add a constructor for a custom tag';
    const answer = await getDocs(store, 'yamlish', question, { format: 'index' });
    expect(answer.results.map((r) => r.heading)).toEqual(['add_constructor', 'add_multi_constructor']);
    const parts = await getDocs(store, 'yamlish', question, { format: 'index', ranking: { partWeight: 1 } });
    expect(parts.results.map((r) => r.heading)).toEqual(['add_multi_constructor', 'add_constructor']);
  });

  it("counts a word's other form in a part of a heading's joined name", async () => {
    // No section holds "safely"; `safe_load` holds `safe`, its stem, and `load`, so it is a name the question asks
    // wholly. Without forms (formWeight 0), `load` is a name of its own and `load` in `safe_load` only a part.
    const question = 'load a YAML file safely';
    const answer = await getDocs(store, 'yamlsafe', question, { format: 'index' });
    expect(answer.results.map((r) => r.heading)).toEqual(['safe_load', 'load']);
    const without = await getDocs(store, 'yamlsafe', question, { format: 'index', ranking: { formWeight: 0 } });
    expect(without.results.map((r) => r.heading)).toEqual(['load', 'safe_load']);
    // Asked with the word itself, the heading holds it: the same order, and no form is counted besides.
    const itself = await getDocs(store, 'yamlsafe', 'load a YAML file safe', { format: 'index' });
    const itselfNoForms = await getDocs(store, 'yamlsafe', 'load a YAML file safe', {
      format: 'index',
      ranking: { formWeight: 0 },
    });
    expect(itself.results).toEqual(itselfNoForms.results);
    expect(itself.results[0]?.heading).toBe('safe_load');
  });

  it('prefers the copy of a section on the page the rest of the docs link to', async () => {
    const answer = await getDocs(store, 'dialects', 'required column', { format: 'index' });
    expect(answer.results.slice(0, 2).map((r) => r.path)).toEqual(['pg/columns.md', 'mysql/columns.md']);
    const unlinked = await getDocs(store, 'dialects', 'required column', {
      format: 'index',
      ranking: { linkWeight: 0 },
    });
    expect(unlinked.results.slice(0, 2).map((r) => r.path)).toEqual(['mysql/columns.md', 'pg/columns.md']);
  });

  it('keeps a library that matches only a stray word below one that answers', async () => {
    const answer = await searchAll(store, 'enable CORS in the browser', { format: 'index', ranking: { drop: 0 } });
    expect(answer.results[0]?.library).toBe('webframe@1.0.0');
    const stray = answer.results.find((r) => r.library === 'unrelated@1.0.0');
    expect(stray?.score ?? 0).toBeLessThan(1);
  });
});
