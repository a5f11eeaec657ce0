/** The LLM client (docs/architecture.md#the-agent). */
export { createLlmClient, type LlmClient, type LlmClientOptions, type LlmRequest, type LlmResponse, type LlmResult, type LlmStreamEvent } from './llm-client.js';
export { toLlmError, type LlmError, type LlmErrorKind } from './llm-errors.js';
export { withCacheBreakpoints, MAX_CACHE_BREAKPOINTS } from './cache-breakpoints.js';
export type { ContextFeatures } from './context-features.js';
export { contextTokens, estimateMessageTokens, estimateMessagesTokens, estimateTextTokens } from './tokens.js';
