/** The LLM client (issue 3 item 1). */
export { createLlmClient, type LlmClient, type LlmClientOptions, type LlmRequest, type LlmResponse, type LlmResult, type LlmStreamEvent } from './llm-client.js';
export { toLlmError, type LlmError, type LlmErrorKind } from './llm-errors.js';
export { withCacheBreakpoints, MAX_CACHE_BREAKPOINTS } from './cache-breakpoints.js';
