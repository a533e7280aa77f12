// This file is the public API of @docs/mcp.
export type { DocsToolContext, LibraryBuildState, LibraryBuilds } from './context.js';
export type { DocsTools } from './register.js';
export { docsTools, registerDocsTools } from './register.js';
export type { SessionMemoryLimits } from './session-memory.js';
export { SessionMemories, SessionMemory } from './session-memory.js';
export type { DocsTool, ToolCall } from './tool.js';
