import type Anthropic from '@anthropic-ai/sdk';
import { systemClock } from '../ports.js';
import { toApiTools } from '../tools/index.js';
import type { MessageRecord, TranscriptRecord } from '../transcripts/index.js';
import type { LlmResponse } from '../llm/index.js';
import { mergeSameRole, toApiMessages } from './api-messages.js';
import type { QueryLoopOptions, QueryResult, SummedUsage } from './agent-types.js';
import { RecordBuilder } from './record-builder.js';
import { runToolCalls } from './run-tool-calls.js';

/**
 * One turn of the agent (docs/architecture.md#the-agent): stream a response → run the tools it asks for → send the
 * results → repeat until the model ends its turn or `maxTurns` responses. Never throws for API
 * errors: they come back as `status: 'error'` with an `LlmError`. On Stop, every record emitted
 * leaves a conversation the API accepts (`toApiMessages` repairs what Stop cut short).
 */
export async function runQueryLoop(o: QueryLoopOptions): Promise<QueryResult> {
  let builder = new RecordBuilder(o.history, o.session, o.clock ?? systemClock, o.sidechain ?? false);
  const records: TranscriptRecord[] = [...o.history];
  const newRecords: MessageRecord[] = [];
  const usage: SummedUsage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const apiTools = toApiTools(o.tools);
  const isFork = o.isFork ?? false;
  let last: LlmResponse | null = null;
  let text = '';

  const emit = async (record: MessageRecord) => {
    records.push(record);
    newRecords.push(record);
    await o.onRecord?.(record);
  };
  const done = (status: QueryResult['status'], error: QueryResult['error'] = null): QueryResult => ({ status, error, newRecords, usage, text });
  const ctx = () => ({ records, newRecords, isFork, response: last });
  // A memory engine's failure must never break the chat: hook errors are logged, not thrown.
  const hook = async (name: 'afterModelResponse' | 'afterTurn') => {
    try {
      await o.hooks?.[name]?.(ctx());
    } catch (e) {
      o.logger?.warn(`agent hook ${name} failed`, { error: (e as Error).message });
    }
  };

  if (o.prompt !== undefined) await emit(builder.make('user', { role: 'user', content: o.prompt }));

  for (let turn = 0; turn < o.maxTurns; turn++) {
    if (o.signal?.aborted) return done('aborted', { kind: 'aborted', message: 'Stopped.' });
    if (turn > 0 && o.hooks?.beforeRequest) {
      const replaced = await o.hooks.beforeRequest(ctx()).catch((e: unknown) => {
        o.logger?.warn('agent hook beforeRequest failed', { error: (e as Error).message });
        return null;
      });
      if (replaced) {
        records.splice(0, records.length, ...replaced);
        // New records follow the compacted conversation's last record.
        builder = new RecordBuilder(records, o.session, o.clock ?? systemClock, o.sidechain ?? false);
      }
      if (o.signal?.aborted) return done('aborted', { kind: 'aborted', message: 'Stopped.' });
    }
    const messages = mergeSameRole([...(o.prefix ?? []), ...toApiMessages(records)]);
    let streamedId: string | undefined;
    const onEvent = (e: Parameters<NonNullable<typeof o.onEvent>>[0]) => {
      if (e.type === 'message_start') streamedId = e.id;
      o.onEvent?.(e);
    };
    const r = await o.llm.stream({ system: o.system, tools: apiTools, messages, maxTokens: o.maxTokens }, { signal: o.signal, onEvent });
    if (!r.ok) {
      if (r.error.kind === 'aborted' && r.partialText.trim() !== '') {
        // Keep what the user already saw (under the id it streamed with); the cut-off tool_use JSON and thinking are dropped.
        const partial = { role: 'assistant' as const, content: [{ type: 'text' as const, text: r.partialText }], model: o.llm.model, stop_reason: null };
        await emit(builder.make('assistant', streamedId ? { ...partial, id: streamedId } : partial));
      }
      return done(r.error.kind === 'aborted' ? 'aborted' : 'error', r.error);
    }
    const response = r.response;
    last = response;
    if (response.compaction && response.stopReason === 'compaction') {
      // Paused after the API's own compaction: the turn goes on from the summary, with CLAUDE.md and
      // MEMORY.md injected again by the caller; nothing of this response is kept as an answer.
      const summary = response.compaction.content;
      const replaced = summary && o.hooks?.onServerCompaction ? await o.hooks.onServerCompaction(summary, ctx()).catch(() => null) : null;
      if (!replaced) return done('error', { kind: 'server_error', message: 'The API compacted the conversation, but its summary could not be used. Retry, or turn server compaction off in Settings.', status: null });
      records.splice(0, records.length, ...replaced);
      builder = new RecordBuilder(records, o.session, o.clock ?? systemClock, o.sidechain ?? false);
      continue;
    }
    usage.input_tokens += response.usage.input_tokens;
    usage.output_tokens += response.usage.output_tokens;
    usage.cache_read_input_tokens += response.usage.cache_read_input_tokens ?? 0;
    usage.cache_creation_input_tokens += response.usage.cache_creation_input_tokens ?? 0;
    const blocks = response.content;
    const responseText = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    if (responseText) text = responseText;
    if (blocks.length > 0) {
      await emit(
        builder.make('assistant', {
          role: 'assistant',
          id: response.id,
          model: response.model,
          content: o.recordedToolInput ? await withRecordedInputs(blocks, o.recordedToolInput, o.logger) : blocks,
          usage: response.usage,
          stop_reason: response.stopReason,
          ...(response.appliedEdits ? { context_management: { cleared_input_tokens: response.appliedEdits.clearedInputTokens, cleared_tool_uses: response.appliedEdits.clearedToolUses } } : {}),
        }),
      );
    }
    await hook('afterModelResponse');
    const calls = blocks.filter((b): b is Anthropic.ToolUseBlockParam => b.type === 'tool_use');
    if (calls.length === 0) {
      await hook('afterTurn');
      return done('completed');
    }
    const results = await runToolCalls(calls, {
      tools: o.tools,
      ctx: { ...o.toolContext, signal: o.signal },
      canUseTool: o.canUseTool,
      onEvent: o.onEvent,
      signal: o.signal,
    });
    // One at a time: a file two Reads bring in is attached to the first only.
    const withAttachments: Anthropic.ToolResultBlockParam[] = [];
    for (const [i, result] of results.entries()) withAttachments.push(await appendAttachments(o, calls[i]!, result));
    await emit(builder.make('user', { role: 'user', content: withAttachments }));
    if (o.signal?.aborted) return done('aborted', { kind: 'aborted', message: 'Stopped.' });
  }
  return done('max_turns');
}

/**
 * The response's blocks with each tool call's input as it is to be recorded. A failure keeps the model's
 * input (as before there was a hook) rather than losing the answer; the write guard still refuses.
 */
async function withRecordedInputs(
  blocks: Anthropic.ContentBlockParam[],
  recorded: NonNullable<QueryLoopOptions['recordedToolInput']>,
  logger: QueryLoopOptions['logger'],
): Promise<Anthropic.ContentBlockParam[]> {
  const out: Anthropic.ContentBlockParam[] = [];
  for (const block of blocks) {
    const input =
      block.type === 'tool_use'
        ? await recorded(block).catch((e: unknown) => {
            logger?.warn('recording a tool call without its secrets failed', { tool: block.name, error: (e as Error).message });
            return null;
          })
        : null;
    out.push(input === null || block.type !== 'tool_use' ? block : { ...block, input });
  }
  return out;
}

/** The result with the texts `attachToResult` gives for it appended, each after a blank line. */
async function appendAttachments(o: QueryLoopOptions, call: Anthropic.ToolUseBlockParam, result: Anthropic.ToolResultBlockParam): Promise<Anthropic.ToolResultBlockParam> {
  if (!o.attachToResult) return result;
  const texts = await o.attachToResult(call, result).catch((e: unknown) => {
    o.logger?.warn('agent attachments failed', { error: (e as Error).message });
    return [];
  });
  if (texts.length === 0) return result;
  const content = result.content;
  if (typeof content === 'string' || content === undefined) return { ...result, content: [content ?? '', ...texts].join('\n\n') };
  return { ...result, content: [...content, ...texts.map((text) => ({ type: 'text' as const, text }))] };
}
