import type Anthropic from '@anthropic-ai/sdk';
import { runTool, type Tool, type ToolContext } from '../tools/index.js';
import type { CanUseTool } from './fork-types.js';
import { INTERRUPTED_RESULT } from './api-messages.js';
import type { AgentEvent } from './agent-types.js';

/**
 * Runs one response's tool calls (docs/architecture.md#the-agent): consecutive read-only calls run concurrently,
 * a write runs alone and in order. Results keep the calls' order. On Stop, a call still running
 * gets the "interrupted" result and later calls do not start.
 */
export async function runToolCalls(
  calls: Anthropic.ToolUseBlockParam[],
  options: { tools: Tool[]; ctx: ToolContext; canUseTool?: CanUseTool; onEvent?: (e: AgentEvent) => void; signal?: AbortSignal },
): Promise<Anthropic.ToolResultBlockParam[]> {
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const results = new Array<Anthropic.ToolResultBlockParam>(calls.length);
  const interrupted = (id: string): Anthropic.ToolResultBlockParam => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true });

  const one = async (call: Anthropic.ToolUseBlockParam, i: number) => {
    const signal = options.signal;
    if (signal?.aborted) {
      results[i] = interrupted(call.id);
      return;
    }
    options.onEvent?.({ type: 'tool_start', id: call.id, name: call.name, input: call.input });
    const work = (async () => {
      const tool = byName.get(call.name);
      if (!tool) return { content: `Error: No such tool available: ${call.name}`, isError: true };
      const decision = options.canUseTool ? await options.canUseTool(call.name, call.input) : { allow: true as const };
      if (!decision.allow) return { content: decision.message, isError: true };
      return runTool(tool, call.input, options.ctx);
    })();
    const aborted = new Promise<null>((resolve) => {
      if (!signal) return;
      if (signal.aborted) resolve(null);
      signal.addEventListener('abort', () => resolve(null), { once: true });
    });
    const out = await Promise.race([work, aborted]);
    if (out === null) {
      results[i] = interrupted(call.id);
      return;
    }
    options.onEvent?.({ type: 'tool_end', id: call.id, name: call.name, content: out.content, isError: Boolean(out.isError) });
    results[i] = { type: 'tool_result', tool_use_id: call.id, content: out.content, ...(out.isError ? { is_error: true } : {}) };
  };

  let i = 0;
  while (i < calls.length) {
    const first = calls[i]!;
    if (!byName.get(first.name)?.readOnly) {
      await one(first, i);
      i++;
      continue;
    }
    const start = i;
    while (i < calls.length && byName.get(calls[i]!.name)?.readOnly) i++;
    await Promise.all(calls.slice(start, i).map((c, k) => one(c, start + k)));
  }
  return results;
}
