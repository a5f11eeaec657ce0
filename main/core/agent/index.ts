/** The agent engine (docs/architecture.md#the-agent): the query loop, its message normalizer and forks. */
export { runQueryLoop } from './query-loop.js';
export { createForkRunner, ForkFailedError, type ParentPrefix } from './fork-runner.js';
export { runForkedAgent, cacheHitRatio, type ForkedAgentOptions, type ForkedAgentResult } from './forked-agent.js';
export { toApiMessages, mergeSameRole, INTERRUPTED_RESULT } from './api-messages.js';
export { runToolCalls } from './run-tool-calls.js';
export type { AgentEvent, AgentHooks, HookContext, QueryLoopOptions, QueryResult, QueryStatus, SummedUsage } from './agent-types.js';
export type { CanUseTool, ForkArgs, ForkResult, ForkRunner, ForkUsage, MessageParam, SummarizerFork, ToolDecision } from './fork-types.js';
export { RecordBuilder } from './record-builder.js';
