import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { decideUpdate, toolCallsSince, type TriggerState } from '../../../../main/core/session-memory/index.js';
import type { MessageRecord } from '../../../../main/core/transcripts/records.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';

const config = defaultMemoryConfig.sessionMemory;
const fresh: TriggerState = { initialized: false, updateCursorUuid: null, tokensAtLastUpdate: 0 };

/**
 * A conversation whose context size is exactly `tokens` (the last record is an assistant response
 * with that usage), with `toolCalls` tool rounds before it; the last response calls a tool when asked.
 */
function conversation(tokens: number, toolCalls: number, lastCallsTool: boolean) {
  const t = new TranscriptBuilder();
  t.user('please fix the build');
  for (let i = 0; i < toolCalls; i++) t.toolRound('Read', { file_path: `/project/f${i}.ts` }, 'contents');
  const content = lastCallsTool ? [t.toolUse('Grep', { pattern: 'x' })] : [{ type: 'text' as const, text: 'done' }];
  t.assistant(content, { usage: { input_tokens: tokens } });
  return { records: t.records as MessageRecord[], builder: t };
}

describe('decideUpdate (docs/memory.md#session-notes trigger)', () => {
  it('never fires inside a forked agent, even when every threshold is met', () => {
    const { records } = conversation(50_000, 5, false);
    const d = decideUpdate(records, fresh, config, { isFork: true });
    expect(d).toMatchObject({ update: false, reason: 'fork', next: fresh });
  });

  it('holds an empty conversation', () => {
    expect(decideUpdate([], fresh, config, { isFork: false })).toMatchObject({ update: false, reason: 'empty' });
  });

  it('waits until the context reaches 10,000 tokens', () => {
    const { records } = conversation(9_999, 0, false);
    const d = decideUpdate(records, fresh, config, { isFork: false });
    expect(d).toMatchObject({ update: false, reason: 'below-init', contextTokens: 9_999 });
    expect(d.next.initialized).toBe(false);
  });

  it('fires at 10,000 tokens at a natural pause and moves the cursor to the last record', () => {
    const { records } = conversation(10_000, 0, false);
    const d = decideUpdate(records, fresh, config, { isFork: false });
    expect(d).toMatchObject({ update: true, reason: 'natural-pause' });
    expect(d.next).toEqual({ initialized: true, updateCursorUuid: records[records.length - 1]!.uuid, tokensAtLastUpdate: 0 });
  });

  it('requires 5,000 tokens of growth since the last update', () => {
    const state = { ...fresh, initialized: true, tokensAtLastUpdate: 8_000 };
    expect(decideUpdate(conversation(12_999, 3, false).records, state, config, { isFork: false })).toMatchObject({ update: false, reason: 'growth' });
    expect(decideUpdate(conversation(13_000, 0, false).records, state, config, { isFork: false })).toMatchObject({ update: true, reason: 'natural-pause' });
  });

  it('remembers the init gate once passed, so a smaller context after a compaction can still trigger', () => {
    const state = { ...fresh, initialized: true, tokensAtLastUpdate: 0 };
    expect(decideUpdate(conversation(6_000, 0, false).records, state, config, { isFork: false })).toMatchObject({ update: true });
    expect(decideUpdate(conversation(6_000, 0, false).records, fresh, config, { isFork: false })).toMatchObject({ reason: 'below-init' });
  });

  it('reports the init gate as passed even when the growth gate holds', () => {
    const state = { ...fresh, tokensAtLastUpdate: 6_000 };
    const d = decideUpdate(conversation(10_500, 0, false).records, state, config, { isFork: false });
    expect(d).toMatchObject({ update: false, reason: 'growth' });
    expect(d.next.initialized).toBe(true);
  });

  it('mid tool loop, waits for 3 tool calls since the cursor', () => {
    const two = conversation(20_000, 1, true); // one round + the pending call = 2
    expect(decideUpdate(two.records, fresh, config, { isFork: false })).toMatchObject({ update: false, reason: 'tool-calls', toolCallsSinceCursor: 2 });
    const three = conversation(20_000, 2, true);
    expect(decideUpdate(three.records, fresh, config, { isFork: false })).toMatchObject({ update: true, reason: 'tool-calls', toolCallsSinceCursor: 3 });
  });

  it('counts tool calls only after the cursor', () => {
    const { records } = conversation(20_000, 4, true);
    const cursor = records[6]!.uuid; // after the third round's result: one round and the pending call follow
    const d = decideUpdate(records, { ...fresh, initialized: true, updateCursorUuid: cursor }, config, { isFork: false });
    expect(d).toMatchObject({ update: false, reason: 'tool-calls', toolCallsSinceCursor: 2 });
  });

  it('counts no tool calls when the cursor record is gone', () => {
    const { records } = conversation(20_000, 4, true);
    expect(toolCallsSince(records, 'compacted-away')).toBe(0);
    expect(toolCallsSince(records, null)).toBe(5);
    const d = decideUpdate(records, { ...fresh, initialized: true, updateCursorUuid: 'compacted-away' }, config, { isFork: false });
    expect(d).toMatchObject({ update: false, reason: 'tool-calls', toolCallsSinceCursor: 0 });
  });

  it('counts parallel tool calls in one response one by one', () => {
    const t = new TranscriptBuilder();
    t.user('go');
    t.assistant([t.toolUse('Read', { file_path: '/a' }), t.toolUse('Read', { file_path: '/b' }), t.toolUse('Read', { file_path: '/c' })], {
      usage: { input_tokens: 15_000 },
    });
    expect(decideUpdate(t.records as MessageRecord[], fresh, config, { isFork: false })).toMatchObject({ update: true, reason: 'tool-calls' });
  });
});
