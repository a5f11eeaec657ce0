import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { PTL_RETRY_MARKER, tokenGapOf, truncateHeadForRetry } from '../../../../main/core/compact/ptl-retry.js';

const user = (text: string): Anthropic.MessageParam => ({ role: 'user', content: text });
const toolUse = (id: string): Anthropic.MessageParam => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `${id}.ts` } }] });
const toolResult = (id: string, text: string): Anthropic.MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] });

/** Ten rounds of ~1,330 estimated tokens each (4,000 characters, padded by 4/3): an opening question, then tool calls and their results. */
function conversation(): Anthropic.MessageParam[] {
  const messages = [user(`question ${'q'.repeat(4_000)}`)];
  for (let i = 1; i < 10; i++) messages.push(toolUse(`t${i}`), toolResult(`t${i}`, 'r'.repeat(4_000)));
  return messages;
}

/** Every tool_use has its tool_result in the next message, and roles alternate from a user message. */
function wellFormed(messages: Anthropic.MessageParam[]): boolean {
  if (messages[0]?.role !== 'user') return false;
  return messages.every((m, i) => {
    if (i > 0 && m.role === messages[i - 1]!.role) return false;
    if (typeof m.content === 'string' || m.role !== 'assistant') return true;
    const ids = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    const next = messages[i + 1];
    return ids.every((id) => typeof next?.content !== 'string' && next?.content.some((b) => b.type === 'tool_result' && b.tool_use_id === id));
  });
}

describe('the head truncation of a summarizer retry', () => {
  it('reads the token gap from the API’s error, with or without thousands separators', () => {
    expect(tokenGapOf('prompt is too long: 210000 tokens > 200000 maximum')).toBe(10_000);
    expect(tokenGapOf('prompt is too long: 212,345 tokens > 200,000 maximum')).toBe(12_345);
    expect(tokenGapOf('Request exceeds the maximum allowed number of bytes.')).toBeNull();
  });

  it('drops whole rounds from the oldest until the gap is covered, and marks the cut', () => {
    const all = conversation();
    const cut = truncateHeadForRetry(all, 3_000);
    // Two rounds cover ~2,700 tokens, not 3,000: three go (the question and two tool rounds).
    expect(cut[0]).toEqual(user(PTL_RETRY_MARKER));
    expect(cut.slice(1)).toEqual(all.slice(5));
    expect(wellFormed(cut)).toBe(true);
  });

  it('drops a fifth of the rounds when the gap is unknown, at least one, and always keeps one', () => {
    const all = conversation();
    expect(truncateHeadForRetry(all, null).slice(1)).toEqual(all.slice(3));
    const two = [user('q'), toolUse('a'), toolResult('a', 'r')];
    expect(truncateHeadForRetry(two, null)).toEqual([user(PTL_RETRY_MARKER), toolUse('a'), toolResult('a', 'r')]);
    expect(truncateHeadForRetry(all, 1_000_000)).toEqual([user(PTL_RETRY_MARKER), ...all.slice(-2)]);
    expect(truncateHeadForRetry([user('only')], 10)).toEqual([user('only')]);
  });

  it('strips an earlier retry’s marker before cutting again, so markers never pile up', () => {
    const once = truncateHeadForRetry(conversation(), null);
    const twice = truncateHeadForRetry(once, null);
    expect(twice.filter((m) => m.content === PTL_RETRY_MARKER)).toHaveLength(1);
    expect(twice.length).toBeLessThan(once.length);
    expect(wellFormed(twice)).toBe(true);
  });
});
