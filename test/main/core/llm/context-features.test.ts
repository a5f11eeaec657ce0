import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient, type LlmStreamEvent } from '../../../../main/core/llm/index.js';
import { BETA_COMPACTION, BETA_CONTEXT_MANAGEMENT, type ContextFeatures } from '../../../../main/core/llm/context-features.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const client = (url: string, features?: ContextFeatures) =>
  createLlmClient({ getApiKey: async () => 'sk-test', baseURL: url, model: 'claude-test', ...(features ? { features } : {}) });

/** A conversation of `n` Read calls, each answered with `size` characters of file text. */
function toolHeavyConversation(n: number, size: number): Anthropic.MessageParam[] {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read the files.' }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: i === 0 ? 'memory' : 'Read', input: { file_path: `/p/f${i}.txt` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `line ${i} `.repeat(size / 8) }] });
  }
  return messages;
}

const clearing: ContextFeatures = { clearToolUses: { triggerTokens: 5_000, keepToolUses: 2, clearAtLeastTokens: 1_000, excludeTools: ['memory'] } };

describe('the API context features through the real SDK', () => {
  it('sends a plain request to the GA endpoint with no beta header when no feature is on', async () => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue(text('ok'));
    const r = await client(fake.url).stream({ system: [], tools: [], messages: [{ role: 'user', content: 'hi' }] }, {});
    expect(r.ok).toBe(true);
    expect(fake.requests[0]!.headers['anthropic-beta']).toBeUndefined();
    expect(fake.requests[0]!.body).not.toHaveProperty('context_management');
  });

  it('context editing: the beta header and edit are sent, old tool results are cleared past the trigger, and the response says how much', async () => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue(text('plain'), text('edited'));
    const messages = toolHeavyConversation(8, 4_000);
    const plain = await client(fake.url).stream({ system: [], tools: [], messages }, {});
    const edited = await client(fake.url, clearing).stream({ system: [], tools: [], messages }, {});
    expect(plain.ok && edited.ok).toBe(true);
    if (!plain.ok || !edited.ok) return;
    const sent = fake.requests[1]!;
    expect(sent.rejected).toBeNull();
    expect(String(sent.headers['anthropic-beta'])).toContain(BETA_CONTEXT_MANAGEMENT);
    expect((sent.body as { context_management?: unknown }).context_management).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 5_000 },
          keep: { type: 'tool_uses', value: 2 },
          clear_at_least: { type: 'input_tokens', value: 1_000 },
          exclude_tools: ['memory'],
        },
      ],
    });
    // Eight results, the newest two kept and the memory tool's never cleared: five cleared.
    expect(edited.response.appliedEdits?.clearedToolUses).toBe(5);
    expect(edited.response.appliedEdits!.clearedInputTokens).toBeGreaterThan(4_000);
    const total = (u: Anthropic.Usage) => u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    expect(total(plain.response.usage) - total(edited.response.usage)).toBe(edited.response.appliedEdits!.clearedInputTokens);
    expect(plain.response.appliedEdits).toBeUndefined();
  });

  it('context editing below its trigger clears nothing and reports nothing', async () => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue(text('short'));
    const r = await client(fake.url, clearing).stream({ system: [], tools: [], messages: toolHeavyConversation(2, 200) }, {});
    expect(r.ok && r.response.appliedEdits).toBeUndefined();
  });

  it('server compaction: the edit carries the instructions and pauses; the compaction block is read apart from the content', async () => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue({ kind: 'message', content: [], compaction: '# Session Title\nPlanning the trip', stopReason: 'compaction' });
    const events: LlmStreamEvent[] = [];
    const r = await client(fake.url, { serverCompaction: { triggerTokens: 10_000, instructions: 'Keep the notes template.' } }).stream(
      { system: [], tools: [], messages: [{ role: 'user', content: 'go on' }] },
      { onEvent: (e) => events.push(e) },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const sent = fake.requests[0]!;
    expect(String(sent.headers['anthropic-beta'])).toContain(BETA_COMPACTION);
    // The API's floor for the trigger is 50,000 tokens; a smaller setting is raised to it, not refused.
    expect((sent.body as { context_management?: { edits: unknown[] } }).context_management!.edits).toEqual([
      { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 }, instructions: 'Keep the notes template.', pause_after_compaction: true },
    ]);
    expect(r.response.stopReason).toBe('compaction');
    expect(r.response.compaction).toEqual({ type: 'compaction', content: '# Session Title\nPlanning the trip' });
    expect(r.response.content).toEqual([]);
    expect(events).toContainEqual({ type: 'compaction', summary: '# Session Title\nPlanning the trip' });
  });

  it('the fake refuses what the API refuses: a feature without its beta header, a trigger under the floor, a misplaced compaction block', async () => {
    fake = await startFakeAnthropic();
    const post = (body: unknown, beta?: string) =>
      fetch(`${fake!.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', ...(beta ? { 'anthropic-beta': beta } : {}) }, body: JSON.stringify(body) });
    const base = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'a' }] };
    const clear = { context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } };
    expect((await post({ ...base, ...clear })).status).toBe(400);
    expect((await post({ ...base, context_management: { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'input_tokens', value: 3 } }] } }, BETA_CONTEXT_MANAGEMENT)).status).toBe(400);
    expect((await post({ ...base, context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1_000 } }] } }, BETA_COMPACTION)).status).toBe(400);
    const misplaced = { ...base, messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [{ type: 'text', text: 'x' }, { type: 'compaction', content: 's' }] }, { role: 'user', content: 'b' }] };
    expect((await post(misplaced, BETA_COMPACTION)).status).toBe(400);
    expect((await post({ ...base, tools: [{ type: 'memory_20250818', name: 'memories' }] })).status).toBe(400);
    expect(fake.requests.every((r) => r.rejected !== null)).toBe(true);
  });

  it('the fake accepts the thinking-clearing edit Claude Code itself sends', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(text('ok'));
    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-beta': BETA_CONTEXT_MANAGEMENT },
      body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'a' }], context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] } }),
    });
    expect(res.status).toBe(200);
  });
});
