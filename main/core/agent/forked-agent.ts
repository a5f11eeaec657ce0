import type Anthropic from '@anthropic-ai/sdk';
import type { LlmClient } from '../llm/index.js';
import type { CanUseTool } from './fork-types.js';
import type { Tool, ToolContext } from '../tools/index.js';
import type { MessageRecord } from '../transcripts/index.js';
import type { QueryResult, SummedUsage } from './agent-types.js';
import { runQueryLoop } from './query-loop.js';
import { RecordBuilder } from './record-builder.js';
import { systemClock } from '../ports.js';

/** A forked agent's inputs (docs/architecture.md#the-agent): the parent's exact prefix plus prompts. */
export interface ForkedAgentOptions {
  llm: LlmClient;
  /** The parent's system prompt, tools and messages, unchanged: they are the prompt-cache key. */
  system: Anthropic.TextBlockParam[];
  tools: Tool[];
  messages: Anthropic.MessageParam[];
  promptMessages: Anthropic.MessageParam[];
  toolContext: Omit<ToolContext, 'signal'>;
  /** The fork's restriction: by decision, never by changing the tool list. */
  canUseTool: CanUseTool;
  maxTurns: number;
  signal?: AbortSignal;
  session: { sessionId: string; cwd: string };
  maxTokens?: number;
}

export interface ForkedAgentResult {
  status: QueryResult['status'];
  error: QueryResult['error'];
  /** The fork's own records (prompt messages and what followed), marked `isSidechain`. */
  records: MessageRecord[];
  usage: SummedUsage;
  /** cache_read / (input + cache_creation + cache_read); 0 without usage. */
  cacheHitRatio: number;
  text: string;
}

export function cacheHitRatio(u: SummedUsage): number {
  const total = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
  return total === 0 ? 0 : u.cache_read_input_tokens / total;
}

export async function runForkedAgent(o: ForkedAgentOptions): Promise<ForkedAgentResult> {
  const builder = new RecordBuilder([], o.session, systemClock, true);
  const promptRecords = o.promptMessages.map((m) =>
    builder.make(m.role === 'assistant' ? 'assistant' : 'user', { role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content as string }),
  );
  const result = await runQueryLoop({
    llm: o.llm,
    system: o.system,
    tools: o.tools,
    toolContext: o.toolContext,
    history: promptRecords,
    prefix: o.messages,
    session: o.session,
    canUseTool: o.canUseTool,
    isFork: true,
    sidechain: true,
    maxTurns: o.maxTurns,
    maxTokens: o.maxTokens,
    signal: o.signal,
  });
  return {
    status: result.status,
    error: result.error,
    records: [...promptRecords, ...result.newRecords],
    usage: result.usage,
    cacheHitRatio: cacheHitRatio(result.usage),
    text: result.text,
  };
}
