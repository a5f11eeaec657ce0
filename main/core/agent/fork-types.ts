import type Anthropic from '@anthropic-ai/sdk';

/** A message the fork appends after the parent's exact prefix (docs/architecture.md#the-agent). */
export type MessageParam = Anthropic.MessageParam;

/** A permission decision; a denial's `message` is returned to the model as the tool result. */
export type ToolDecision = { allow: true } | { allow: false; message: string };

/** The fork's permission check: restriction by decision, never by changing the tool list (cache key). */
export type CanUseTool = (toolName: string, input: unknown) => Promise<ToolDecision>;

/** Usage summed over every response of a forked run. */
export interface ForkUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export interface ForkArgs {
  promptMessages: MessageParam[];
  canUseTool: CanUseTool;
  signal?: AbortSignal;
}

export interface ForkResult {
  usage: ForkUsage;
  /** cache_read / (input + cache_creation + cache_read). */
  cacheHitRatio: number;
}

/**
 * Runs a forked agent with the parent's exact prefix (system prompt, tools, messages) followed by
 * `promptMessages`, until it stops. Implemented by the agent engine (`runForkedAgent`), bound by the
 * caller to the parent conversation of the moment, so each call shares the current prompt cache.
 */
export interface ForkRunner {
  (args: ForkArgs): Promise<ForkResult>;
}

/** A one-turn, no-tools fork that returns the assistant's text (legacy compaction, docs/memory.md#compaction). */
export interface SummarizerFork {
  (
    args: ForkArgs & {
      maxTurns: 1;
      /** Shortens the parent's messages before the call (a retry after "prompt is too long", docs/memory.md#compaction). */
      trimMessages?: (messages: MessageParam[]) => MessageParam[];
    },
  ): Promise<ForkResult & { text: string }>;
}
