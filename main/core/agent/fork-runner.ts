import type Anthropic from '@anthropic-ai/sdk';
import type { LlmClient, LlmError } from '../llm/index.js';
import type { ForkRunner, SummarizerFork } from './fork-types.js';
import type { Tool, ToolContext } from '../tools/index.js';
import { runForkedAgent } from './forked-agent.js';

/** The parent conversation of the moment: exactly what its last request sent (the cache key). */
export interface ParentPrefix {
  system: Anthropic.TextBlockParam[];
  tools: Tool[];
  messages: Anthropic.MessageParam[];
}

/** A fork that ended on an API error or a Stop: its callers must not count it as done (docs/memory.md#session-notes cursors). */
export class ForkFailedError extends Error {
  constructor(
    readonly status: 'error' | 'aborted',
    readonly error: LlmError | null,
  ) {
    super(error?.message ?? (status === 'aborted' ? 'the fork was stopped' : 'the fork failed'));
    this.name = 'ForkFailedError';
  }
}

/**
 * Binds `runForkedAgent` to a parent conversation as the `ForkRunner` / `SummarizerFork` ports of
 * session-memory and compaction (fork-types.ts). `getParent` is read at call time, so each fork
 * shares the prompt cache of the conversation as it is then. The loop reports API errors as a status;
 * here they become a rejection (`ForkFailedError`), so no caller mistakes a failed fork for a success.
 */
export function createForkRunner(deps: {
  llm: LlmClient;
  getParent: () => ParentPrefix;
  toolContext: Omit<ToolContext, 'signal'>;
  session: { sessionId: string; cwd: string };
  maxTurns: number;
}): ForkRunner & SummarizerFork {
  const run = async (args: Parameters<ForkRunner>[0] & { maxTurns?: number; trimMessages?: (m: Anthropic.MessageParam[]) => Anthropic.MessageParam[] }) => {
    const parent = deps.getParent();
    const r = await runForkedAgent({
      llm: deps.llm,
      system: parent.system,
      tools: parent.tools,
      messages: args.trimMessages ? args.trimMessages(parent.messages) : parent.messages,
      promptMessages: args.promptMessages.map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content }) as Anthropic.MessageParam),
      toolContext: deps.toolContext,
      canUseTool: args.canUseTool,
      maxTurns: args.maxTurns ?? deps.maxTurns,
      signal: args.signal,
      session: deps.session,
    });
    if (r.status === 'error' || r.status === 'aborted') throw new ForkFailedError(r.status, r.error);
    return { usage: r.usage, cacheHitRatio: r.cacheHitRatio, text: r.text };
  };
  return run as ForkRunner & SummarizerFork;
}
