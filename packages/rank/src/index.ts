// This file is the public API of @docs/rank: pure ranking functions for a
// documentation search engine. Anything not exported here is internal and may
// change without a major version.

export type { DiversifyOptions } from './diversify.js';
export { diversify } from './diversify.js';
export type { MinMaxOptions } from './min-max.js';
export { minMaxNormalize } from './min-max.js';
export type { FusedResult, RankFusionOptions } from './rank-fusion.js';
export { reciprocalRankFusion } from './rank-fusion.js';
export type { RelevanceDropOptions } from './relevance-drop.js';
export { relevanceDrop } from './relevance-drop.js';
export type { RerankOptions } from './rerank.js';
export { rerank } from './rerank.js';
export type { ConvexFusionOptions } from './score-fusion.js';
export { convexFusion } from './score-fusion.js';
export type { TextCostOptions } from './text-cost.js';
export { encodedBytes, textCost } from './text-cost.js';
export type { BudgetedItem, BudgetItem, TokenBudgetOptions, TokenBudgetResult } from './token-budget.js';
export { tokenBudget } from './token-budget.js';
export type { FusedScore, ScoredId, ScoreFusionOptions } from './weighted-fusion.js';
export { fuseScores } from './weighted-fusion.js';
