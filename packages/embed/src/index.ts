// The public API of @docs/embed: text → vectors, and (query, document) pairs → relevance.
export type { LocalModelInfo, ModelsReport } from './describe.js';
export { describeModels, localEmbedderWithId } from './describe.js';
export type { EmbedErrorCode } from './errors.js';
export { EmbedError } from './errors.js';
export { resolveHubCache, resolveModelsDir } from './locations.js';
export { openEmbedder, openReranker } from './open.js';
export type { PulledModel, PullOptions } from './pull.js';
export { pullModel } from './pull.js';
export { specForGraphOf } from './spec.js';
export type { CallOptions, EmbedConfig, Embedder, InputKind, Pooling, Reranker } from './types.js';
