/** The fake Anthropic Messages API (docs/architecture.md#the-agent): loopback HTTP with JSON and SSE, scripted per test. */
export { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicOptions, type ReceivedRequest } from './server.js';
export { apiErrors, text, toolCalls, type ScriptedBlock, type ScriptedMessage, type ScriptedResponse } from './script.js';
export { echoResponder } from './auto.js';
export { blockTokens } from './prompt-cache.js';
export type { WireRequest } from './validate.js';
export { lastUserText } from './request-text.js';
