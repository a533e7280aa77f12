import { MAX_ALTERNATIVE_LENGTH, MAX_ALTERNATIVES } from '@docs/search';
import { z } from 'zod';

// The tools' alternative phrasings and how sure an answer is: the input field and the output
// fields, kept apart from the other schemas as one concern.

export const alternativesInput = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'an alternative phrasing must have words; leave out empty ones')
      .max(
        MAX_ALTERNATIVE_LENGTH,
        `an alternative phrasing is a few words: at most ${MAX_ALTERNATIVE_LENGTH} characters`,
      ),
  )
  .max(MAX_ALTERNATIVES, `at most ${MAX_ALTERNATIVES} alternatives; keep those in the library's own terms`)
  .optional()
  .describe(
    'Other phrasings in the docs\' own terms (API, feature or config names), searched in the same call: topic "run code at startup", alternatives ["lifespan events"].',
  );

/** The tools' advice on phrasings, for their descriptions. */
export const ALTERNATIVES_HINT =
  "For a question in plain words, pass 1-3 `alternatives` in the library's own terms. A weak match means the docs likely do not cover it.";

export const confidenceOutput = z
  .object({
    strength: z
      .number()
      .describe(
        "Share in [0, 1] of the question's information (rare words weigh more) that the best results hold; unlike score, comparable between searches",
      ),
    weak: z.boolean().describe('True when the best results miss much of the question; the message says which words'),
    missing: z.array(z.string()).describe('Words of the topic no result on the first page holds'),
    unmentioned: z.array(z.string()).describe('Words of the topic no section of the searched docs mentions at all'),
  })
  .optional()
  .describe('How much of the question the answer holds');

export const phrasingsOutput = z
  .array(
    z.object({
      text: z.string().describe('The phrasing (the topic first)'),
      terms: z.array(z.string()).describe('Its words as searched'),
      strength: z.number().describe('Share of its information its best result holds, [0, 1]'),
      results: z.array(z.number().int()).describe('Positions (1-based) of the returned results it found'),
    }),
  )
  .optional()
  .describe('With alternatives: which phrasing found which results');
