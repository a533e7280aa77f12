/**
 * English function words and question words that carry no topic. Dropped
 * from queries so "how do I mock timers in vitest" searches for what matters;
 * kept when a query has nothing else.
 *
 * Words of time and order (`after`, `before`, `between`, `during`, `until`,
 * `once`, `again`) are not on the list: they are what a question about hooks,
 * retries, schedules and dates turns on, and what the docs name it by
 * (`beforeEach`, `stop_after_attempt`, a diff "between two dates", a debounce
 * that runs "after wait milliseconds"). Quantity and negation words (`all`,
 * `not`) and place particles (`from`, `on`, `up`) were measured off the list
 * too, and cost on the set that did not shape the ranking (docs/ranking.md).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above against all am an and any are aren't as at be because been being below both but by can can't cannot
  could couldn't did didn't do does doesn't doing don't down each few for from further had hadn't has hasn't have
  haven't having he her here hers herself him himself his how i i'm if in into is isn't it it's its itself just
  let's me more most mustn't my myself no nor not of off on only or other ought our ours ourselves out over own same
  shan't she should shouldn't so some such than that that's the their theirs them themselves then there there's
  these they they're this those through to too under up very was wasn't we we're were weren't what what's when where
  which while who whom why why's will with won't would wouldn't you you're your yours yourself yourselves way ways
  want wants need needs get gets got possible please tell show anyone someone something thing things`
    .split(/\s+/)
    .filter(Boolean),
);
