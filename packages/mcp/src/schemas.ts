import { RANKING_DEFAULTS, SEARCH_DEFAULTS, type SearchResponse } from '@docs/search';
import { z } from 'zod';
import { confidenceOutput, phrasingsOutput } from './phrasings.js';

// Shared pieces of the tools' input and output schemas. Bounds keep one call's answer
// within what an agent's context can take; the search engine accepts wider values.
//
// Every session pays for the input schemas before its first question (tools/list), so each description says what
// the field means in a few words and leaves its bounds and default to the schema's own keywords (minimum, maximum,
// maxLength, default), which the model reads with it. The test in tools-list.test.ts holds the list to its budget.

/** A library as a caller names it, undescribed: where a field's own description says what each item is. */
export const libraryName = z.string().min(1).max(300);

export const libraryInput = libraryName.describe(
  'Name ("vitest"), name@version or range ("vitest@3"). A bare name: the version the project uses, else the highest.',
);

export const versionInput = z
  .string()
  .min(1)
  .max(128)
  .optional()
  .describe('Version or range, for a bare `library` name.');

export const topicInput = z
  .string()
  .min(1)
  .max(1000)
  .describe(
    `A few specific words: an API or option name, config key, error message, short task; not a sentence, not the library name. The first ${RANKING_DEFAULTS.maxTerms} are searched.`,
  );

export const tokensInput = z
  .number()
  .int()
  .min(100)
  .max(20_000)
  .default(SEARCH_DEFAULTS.tokens)
  .describe("Token budget for all results' content.");

export const formatInput = z
  .enum(['full', 'index'])
  .default(SEARCH_DEFAULTS.format)
  .describe('"index": titles and paths only, to scan many cheaply.');

export const limitInput = z.number().int().min(1).max(50).default(SEARCH_DEFAULTS.limit).describe('Results per page.');

export const offsetInput = z
  .number()
  .int()
  .min(0)
  .max(10_000)
  .default(SEARCH_DEFAULTS.offset)
  .describe("The previous answer's nextOffset, for the next page.");

export const modeInput = z
  .enum(['lexical', 'hybrid'])
  .optional()
  .describe('"hybrid" also matches by meaning. Default: hybrid where the docs have vectors.');

export const freshInput = z
  .boolean()
  .default(false)
  .describe('true: also resend the sections this session was sent before.');

export const retrievalOutput = z
  .object({
    mode: z
      .enum(['lexical', 'hybrid'])
      .describe('hybrid when vectors took part for at least one library, else lexical'),
    embedder: z.string().optional().describe('The embedding model whose vectors took part'),
    reranker: z.string().optional().describe('The re-ranker that reordered the first results'),
    notes: z.array(z.string()).optional().describe('Why a library answered lexically, or why no re-ranking ran'),
  })
  .describe('Which retrieval answered, and why');

const resolutionStatus = ['no-packages', 'unknown-library', 'unknown-version'] as const;

export const docResultOutput = z.object({
  library: z.string().describe('name@version of the library the result comes from'),
  path: z.string().describe('Document path inside the library; pass it to read_doc to read the whole page'),
  title: z.string().describe('Title of the document'),
  breadcrumb: z.array(z.string()).describe('Headings from the top of the document down to this section'),
  sections: z
    .array(z.array(z.string()))
    .optional()
    .describe('When adjacent sections were joined into this result, the breadcrumb of each, in page order'),
  heading: z.string().describe("The section's own heading"),
  score: z.number().describe("Relevance in [0, 1]; 1 is each library's best match"),
  tokens: z.number().int().describe('Tokens of the content'),
  truncated: z.boolean().describe('True when the content was cut to fit the budget; read_doc has the rest'),
  content: z
    .string()
    .optional()
    .describe(
      "Markdown of the section. get_docs and search_all send it once, in the reply's text block under this result's header, and leave it out here",
    ),
  sentEarlier: z
    .literal(true)
    .optional()
    .describe('This MCP session was sent the section in full before: its content is left out, and cost no budget'),
});

/** A search response, field for field as `SearchResponse` says (checked below): what getDocs and searchAll answer. */
const searchResponseOutput = z.object({
  status: z.enum(['ok', 'no-match', ...resolutionStatus]).describe('Why the answer has the results it has'),
  message: z.string().describe('What happened and, when nothing was found, what to try next'),
  results: z.array(docResultOutput),
  total: z
    .number()
    .int()
    .describe('Sections found before paging (offset counts sections too; a joined result counts each)'),
  totalIsLowerBound: z
    .literal(true)
    .optional()
    .describe(
      'total is a lower bound ("at least"): over many libraries those that could not reach this page were not scored; the page and nextOffset are exact',
    ),
  totalTokens: z.number().int().describe('Tokens of all returned content'),
  searched: z.array(z.string()).describe('Libraries searched, as name@version'),
  query: z.object({
    terms: z.array(z.string()).describe('Words searched for'),
    match: z
      .enum(['all', 'some', 'none'])
      .describe('Whether results hold all of the words (or their synonyms) or only some'),
  }),
  nextOffset: z.number().int().optional().describe('Offset of the next page, when there are more results'),
  retrieval: retrievalOutput,
  installed: z
    .array(z.string())
    .optional()
    .describe('Libraries available (name@version), when the one asked for is not'),
  suggestion: z.string().optional().describe('The closest available library, when the one asked for is unknown'),
  project: z
    .object({ library: z.string(), installed: z.boolean() })
    .optional()
    .describe('The version the project uses (name@version), when it is not installed and another answered'),
  otherVersions: z
    .array(z.object({ library: z.string(), total: z.number().int() }))
    .optional()
    .describe(
      'Other installed versions that match when the one searched matched nothing or far less: ask for one by version',
    ),
  warnings: z
    .array(z.string())
    .optional()
    .describe(
      'What to know about how the answer was made: the topic cut to the query caps, a damaged library left out',
    ),
  confidence: confidenceOutput,
  phrasings: phrasingsOutput,
});

// The schema is the type: a field added to, dropped from or changed in SearchResponse or the schema alone (its type,
// whether it is optional) stops this line from compiling.
true satisfies Same<z.output<typeof searchResponseOutput>, Parsed<SearchResponse>>;

/**
 * The answer of get_docs and search_all: the search response as the engine gives it. An answer about a library the
 * server could not resolve (nothing was searched) has no `retrieval`.
 */
export const searchOutput = searchResponseOutput.partial({ retrieval: true });

export type SearchOutput = z.infer<typeof searchOutput>;

/** True when A and B are one type: the same fields, each as optional and of the same type in both. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** A type as zod parses it from JSON: its arrays and fields writable. */
type Parsed<T> = T extends readonly (infer E)[]
  ? Parsed<E>[]
  : T extends object
    ? { -readonly [K in keyof T]: Parsed<T[K]> }
    : T;
