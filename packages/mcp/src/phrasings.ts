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
    `Up to ${MAX_ALTERNATIVES} other phrasings of the topic in the docs' own terms, searched together with it in one call and fused into one ranked list (the topic counts most). Use them when the topic is in plain words and you know or can guess what the docs call it: API names, feature names, config keys, error names. E.g. topic "run code when the app starts up and shuts down", alternatives ["lifespan events", "startup shutdown event handlers"]. The answer says which phrasings found which results, so you learn the words that work.`,
  );

/** One sentence for the tools' descriptions. */
export const ALTERNATIVES_HINT =
  "When the question is in plain words, pass 1-3 `alternatives` in the library's own terms (API names, feature names, config keys): they are searched in the same call, which finds sections that do not use your words. If the answer says the match is weak, the docs likely do not cover it: try other words or another library.";

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
