import type { Pooling } from './types.js';

/** Instruction prefixes and pooling of a model family, as its model card prescribes. */
interface Family {
  readonly pattern: RegExp;
  readonly query?: string;
  readonly document?: string;
  readonly pooling?: Pooling;
}

const RETRIEVAL_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

/**
 * Used when a model folder does not say itself (config_sentence_transformers.json `prompts`,
 * 1_Pooling/config.json), and for endpoint models, whose folder we never see. First match wins.
 */
const FAMILIES: readonly Family[] = [
  // bge v1.5 English: the instruction on queries only, CLS pooling. (bge-m3 and the rerankers take none.)
  { pattern: /bge-(small|base|large)-en/i, query: RETRIEVAL_INSTRUCTION, pooling: 'cls' },
  { pattern: /mxbai-embed/i, query: RETRIEVAL_INSTRUCTION, pooling: 'cls' },
  { pattern: /snowflake-arctic-embed|arctic-embed/i, query: RETRIEVAL_INSTRUCTION, pooling: 'cls' },
  { pattern: /(^|[/_-])e5-|multilingual-e5/i, query: 'query: ', document: 'passage: ', pooling: 'mean' },
  { pattern: /nomic-embed-text/i, query: 'search_query: ', document: 'search_document: ', pooling: 'mean' },
];

/** The family defaults for a model name: prefixes ('' when none) and pooling (undefined when unknown). */
export function familyOf(model: string): { query: string; document: string; pooling: Pooling | undefined } {
  const family = FAMILIES.find((f) => f.pattern.test(model));
  return { query: family?.query ?? '', document: family?.document ?? '', pooling: family?.pooling };
}
