import type Anthropic from '@anthropic-ai/sdk';
import type { LlmClient, LlmError, LlmResponse, LlmStreamEvent } from '../llm/index.js';
import type { CanUseTool } from './fork-types.js';
import type { Clock, Logger } from '../ports.js';
import type { Tool, ToolContext } from '../tools/index.js';
import type { MessageRecord, TranscriptRecord } from '../transcripts/index.js';

/** What the memory engines see after a model response or a complete turn (docs/architecture.md#the-agent). */
export interface HookContext {
  /** The whole conversation so far: history plus this run's records. */
  records: TranscriptRecord[];
  /** Only the records this run produced. */
  newRecords: MessageRecord[];
  /** false on the main thread; forks never trigger the memory engines (docs/memory.md#session-notes). */
  isFork: boolean;
  /** The newest response (afterModelResponse) or the turn's last response (afterTurn). */
  response: LlmResponse | null;
}

export interface AgentHooks {
  afterModelResponse?: (ctx: HookContext) => void | Promise<void>;
  afterTurn?: (ctx: HookContext) => void | Promise<void>;
  /**
   * Before each request after tool results (docs/memory.md#compaction: auto-compaction is checked at the top of
   * every loop iteration, not only when the user speaks). Returns the conversation to go on with when
   * it was replaced (a compaction appended a boundary, summary and kept records), else null.
   */
  beforeRequest?: (ctx: HookContext) => Promise<TranscriptRecord[] | null>;
  /**
   * The API compacted the conversation itself and paused (server-side compaction): `summary` stands
   * for everything sent so far. Returns the conversation to go on with (boundary, summary, the
   * re-injected context), or null when the summary could not be used.
   */
  onServerCompaction?: (summary: string, ctx: HookContext) => Promise<TranscriptRecord[] | null>;
}

/** Usage summed over every response of a run. */
export interface SummedUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** Events the UI streams: the model's deltas plus tool progress. */
export type AgentEvent =
  | LlmStreamEvent
  | { type: 'tool_start'; id: string; name: string; input: unknown }
  | { type: 'tool_end'; id: string; name: string; content: string; isError: boolean };

export interface QueryLoopOptions {
  llm: LlmClient;
  system: Anthropic.TextBlockParam[];
  /** Passed unchanged to every request (prompt-cache key). */
  tools: Tool[];
  toolContext: Omit<ToolContext, 'signal'>;
  /** The transcript so far (any record types; normalized by `toApiMessages`). */
  history: TranscriptRecord[];
  /** A new user prompt for this turn; omitted to continue (e.g. Retry after an error). */
  prompt?: string | Anthropic.ContentBlockParam[];
  /** Messages sent before the history's (a fork's parent prefix), byte-for-byte. */
  prefix?: Anthropic.MessageParam[];
  session: { sessionId: string; cwd: string };
  /** Every new record as soon as it is final; the caller appends it to the transcript. */
  onRecord?: (record: MessageRecord) => void | Promise<void>;
  onEvent?: (event: AgentEvent) => void;
  /** Checked before every tool call; a denial's message becomes the tool_result. */
  canUseTool?: CanUseTool;
  hooks?: AgentHooks;
  isFork?: boolean;
  maxTurns: number;
  maxTokens?: number;
  signal?: AbortSignal;
  clock?: Clock;
  /** Receives hook failures (never secrets or file contents). */
  logger?: Logger;
  /** Marks records as a fork's (Claude Code's `isSidechain`). */
  sidechain?: boolean;
  /**
   * Text appended to a tool's result, as Claude Code appends its attachments there (the instructions
   * of a folder the agent just read in). A failure appends nothing.
   */
  attachToResult?: (call: Anthropic.ToolUseBlockParam, result: Anthropic.ToolResultBlockParam) => Promise<string[]>;
  /**
   * The input to record (and send back later) for a tool call in place of the model's, or null to keep
   * it: a memory write with a secret is recorded without the value. The tool runs on the model's input.
   */
  recordedToolInput?: (call: Anthropic.ToolUseBlockParam) => Promise<unknown>;
}

export type QueryStatus = 'completed' | 'max_turns' | 'aborted' | 'error';

export interface QueryResult {
  status: QueryStatus;
  /** Set when status is `error` (or `aborted`, kind `aborted`). */
  error: LlmError | null;
  newRecords: MessageRecord[];
  usage: SummedUsage;
  /** The final assistant text of the run. */
  text: string;
}
