import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { docsMentions } from './mentions.js';

const apis = [
  { name: 'TypeOf', aliases: ['infer'] },
  { name: 'HonoBase.notFound' },
  { name: 'ZodString.email' },
  { name: 'ZodNumber.email' },
  { name: 'ZodDate.email' },
  { name: 'ZodType.parse' },
];

const fence = (code: string) => `\`\`\`ts\n${code}\n\`\`\``;

describe('docsMentions', () => {
  it('lends the paragraph that introduces an example to the API the example calls or instantiates', () => {
    const docs = [
      `Zod infers a static type from your schema definitions:\n\n${fence('type Player = z.infer<typeof Player>;')}\n`,
      `Answer requests to routes that do not exist with a page of your own:\n\n${fence(
        "app.notFound((c) => c.text('Custom 404', 404))",
      )}\n`,
    ];
    expect(docsMentions(ts, docs, apis)).toEqual(
      new Map([
        [0, ['Zod infers a static type from your schema definitions:']],
        [1, ['Answer requests to routes that do not exist with a page of your own:']],
      ]),
    );
  });

  it('reads a name several APIs share only with its owner, and leaves examples of many APIs and prose alone', () => {
    const docs = [
      `Check an address:\n\n${fence('schema.email()')}\n`,
      `Check a string address:\n\n${fence('ZodString.email()')}\n`,
      // Four APIs in one example: how they fit together, not what one does.
      `A tour:\n\n${fence('z.infer<A>; app.notFound(f); ZodString.email(); s.parse(x)')}\n`,
      // Prose naming an API, no example after it; and an example with no paragraph right before it.
      `Use \`app.notFound()\` for missing routes.\n\n# Title\n\n${fence('app.notFound(f)')}`,
    ];
    expect(docsMentions(ts, docs, apis)).toEqual(new Map([[2, ['Check a string address:']]]));
  });

  it('gives the API most examples call (their setting) none of the words of those that show something else', () => {
    const named = [{ name: 'dayjs' }, { name: 'Dayjs.add' }, { name: 'dayjs.extend' }, { name: 'dayjs.locale' }];
    const docs = [
      `Add time to a date:\n\n${fence("dayjs().add(7, 'day')")}\n`,
      `A plugin extends the library:\n\n${fence('dayjs.extend(plugin)')}\n`,
      `Load a locale on demand:\n\n${fence("dayjs.locale('es'); dayjs('2018-05-05')")}\n`,
      `Parse a date:\n\n${fence("dayjs('2018-08-08')")}\n`,
    ];
    // `dayjs` is called by three of the four examples: what they show is `add` and `locale`; the one example that
    // calls nothing else shows `dayjs` itself.
    expect(docsMentions(ts, docs, named)).toEqual(
      new Map([
        [1, ['Add time to a date:']],
        [2, ['A plugin extends the library:']],
        [3, ['Load a locale on demand:']],
        [0, ['Parse a date:']],
      ]),
    );
    // Called by half the examples (two of four), it is not yet their setting.
    const fewer = [docs[0], docs[1], `Load a locale on demand:\n\n${fence("dayjs.locale('es')")}\n`, docs[3]];
    expect(docsMentions(ts, fewer.map(String), named).get(0)).toEqual(['Add time to a date:', 'Parse a date:']);
  });

  it("lends the first paragraph under a heading that names an API (a README's reference) to that API", () => {
    const named = [
      { name: 'v4' },
      { name: 'validate' },
      { name: 'NIL' },
      { name: 'HonoBase.notFound' },
      { name: 'Logger.child' },
    ];
    const docs = [
      [
        '## API',
        '### uuid.v4([options[, buffer[, offset]]])',
        'Create an RFC version 4 (random) UUID',
        '### `uuid.validate(str)`',
        'Test a string to see if it is a valid UUID',
        '### uuid.NIL',
        'The nil UUID string (all zeros).',
        // Headings of words name nothing, even where a word is an API's name or a call follows.
        '### Validate',
        'Checking input before use.',
        '### Using validate() on input',
        'A longer guide.',
        // An anchor and a paragraph of links alone say nothing: the paragraph after them does.
        '#### logger.child(bindings) => logger',
        '<a id="child"></a>',
        '[src](https://example.com/child.ts)',
        'Creates a child logger: its `bindings` go on every line it writes.',
        // A heading with no paragraph right under it lends nothing.
        '### new HonoBase.notFound(handler)',
        fence('app.notFound(f)'),
      ].join('\n\n'),
    ];
    expect(docsMentions(ts, docs, named)).toEqual(
      new Map([
        [0, ['Create an RFC version 4 (random) UUID']],
        [1, ['Test a string to see if it is a valid UUID']],
        [2, ['The nil UUID string (all zeros).']],
        [4, ['Creates a child logger: its `bindings` go on every line it writes.']],
      ]),
    );
  });

  it('keeps at most two passages per API, each cut at a sentence within its bound', () => {
    const long = `${'The parser reads every field of the input. '.repeat(12)}Then it returns.`;
    const docs = ['First:', 'Second:', long, 'Third:'].map((p) => `${p}\n\n${fence('s.parse(x)')}\n`);
    const lent = docsMentions(ts, docs, apis).get(5) ?? [];
    expect(lent).toEqual(['First:', 'Second:']);
    const cut = docsMentions(ts, [`${long}\n\n${fence('s.parse(x)')}\n`], apis).get(5)?.[0] ?? '';
    expect(cut.length).toBeLessThanOrEqual(320);
    expect(cut).toMatch(/input\.$/);
  });
});

describe('docsMentions, by the language of the example', () => {
  it.each([
    ['ts', 1],
    ['js', 1],
    ['javascript', 1],
    ['tsx title="app.tsx"', 1],
    ['', 1],
    ['sh', 0],
    ['python', 0],
  ])('a ```%s block lends %i passage', (info, count) => {
    const docs = [`Answer missing routes:\n\n\`\`\`${info}\napp.notFound(f)\n\`\`\`\n`];
    expect(docsMentions(ts, docs, apis).get(1)?.length ?? 0).toBe(count);
  });
});
