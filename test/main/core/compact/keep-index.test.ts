import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { adjustForApiInvariants, calculateKeepIndex, hasTextBlocks, keepFloor, recordTokens } from '../../../../main/core/compact/index.js';
import type { TranscriptRecord } from '../../../../main/core/transcripts/records.js';
import { randomTranscript } from '../../../fixtures/transcripts/random-transcript.js';
import { TranscriptBuilder, textOfTokens } from '../../../fixtures/transcripts/transcript-builder.js';

const config = defaultMemoryConfig.compaction;
const indexOf = (t: TranscriptBuilder, uuid: string) => t.records.findIndex((r) => r.uuid === uuid);
const tokensFrom = (records: TranscriptRecord[], start: number) => records.slice(start).reduce((n, r) => n + recordTokens(r), 0);

describe('calculateKeepIndex (docs/memory.md#compaction)', () => {
  it('keeps just what follows the cursor when it already meets both floors', () => {
    const t = new TranscriptBuilder();
    t.user(textOfTokens(5_000));
    const cursor = t.assistant(textOfTokens(5_000));
    for (let i = 0; i < 3; i++) {
      t.user(textOfTokens(1_000));
      t.assistant(textOfTokens(3_000));
    }
    expect(calculateKeepIndex(t.records, indexOf(t, cursor), config)).toBe(indexOf(t, cursor) + 1);
  });

  it('extends backwards until 10,000 tokens and 5 messages with text are kept', () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 10; i++) {
      t.user(textOfTokens(1_000));
      t.assistant(textOfTokens(1_000));
    }
    const cursor = t.records[t.records.length - 3]!.uuid!;
    const start = calculateKeepIndex(t.records, indexOf(t, cursor), config);
    expect(start).toBe(t.records.length - 10);
    expect(tokensFrom(t.records, start)).toBe(10_000);
  });

  it('keeps extending for text messages past 10,000 tokens', () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 6; i++) t.user(textOfTokens(100));
    t.assistant(textOfTokens(12_000));
    const start = calculateKeepIndex(t.records, t.records.length - 1, config);
    expect(t.records.slice(start).filter(hasTextBlocks)).toHaveLength(5);
    expect(start).toBe(2);
  });

  it('stops extending at 40,000 tokens even with fewer than 5 text messages', () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 6; i++) t.assistant(textOfTokens(15_000));
    const start = calculateKeepIndex(t.records, t.records.length - 1, config);
    expect(start).toBe(t.records.length - 3);
    expect(tokensFrom(t.records, start)).toBe(45_000);
  });

  it('keeps everything after the cursor even when it is over 40,000 tokens', () => {
    const t = new TranscriptBuilder();
    const cursor = t.user('start');
    for (let i = 0; i < 4; i++) t.assistant(textOfTokens(15_000));
    expect(calculateKeepIndex(t.records, indexOf(t, cursor), config)).toBe(1);
  });

  it('starts from the end without a cursor', () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 20; i++) t.user(textOfTokens(1_000));
    expect(calculateKeepIndex(t.records, -1, config)).toBe(10);
  });

  it('never crosses an earlier compact boundary', () => {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 10; i++) t.user(textOfTokens(1_000));
    const boundary = t.boundary();
    t.user('summary', { isCompactSummary: true });
    t.assistant('ok');
    t.user('more');
    expect(calculateKeepIndex(t.records, -1, config)).toBe(indexOf(t, boundary) + 1);
  });

  it('pulls in the tool_use of a kept tool_result split at the start', () => {
    const t = new TranscriptBuilder();
    t.user('go');
    const round = t.toolRound('Read', { file_path: '/big' }, textOfTokens(10_500));
    t.assistant('read it');
    t.user('thanks');
    t.assistant('welcome');
    t.user('bye');
    // The floors are met at the tool_result; its tool_use comes along.
    expect(calculateKeepIndex(t.records, -1, { ...config, keepMinTextMessages: 4 })).toBe(indexOf(t, round.use));
  });

  it('keeps the records of one API response together (thinking + tool_use, parallel calls)', () => {
    const t = new TranscriptBuilder();
    t.user(textOfTokens(20_000));
    const thinking = t.assistant([{ type: 'thinking', thinking: 'plan', signature: 's' }], { id: 'msg_X' });
    const a = t.toolUse('Read', { file_path: '/a' });
    const b = t.toolUse('Read', { file_path: '/b' });
    t.assistant([a], { id: 'msg_X' });
    t.assistant([b], { id: 'msg_X' });
    t.toolResult(a.id, 'A');
    t.toolResult(b.id, textOfTokens(12_000));
    for (let i = 0; i < 5; i++) t.user(`msg ${i}`);
    // Without the adjustment the start would be b's tool_result; its tool_use then its response's other records follow.
    expect(calculateKeepIndex(t.records, -1, config)).toBe(indexOf(t, thinking));
  });

  it('handles tool results interleaved between records of one response', () => {
    const t = new TranscriptBuilder();
    t.user('go');
    const a = t.toolUse('Read', { file_path: '/a' });
    const b = t.toolUse('Read', { file_path: '/b' });
    const first = t.assistant([a], { id: 'msg_Y' });
    t.toolResult(a.id, 'A');
    t.assistant([b], { id: 'msg_Y' });
    const resB = t.toolResult(b.id, 'B');
    expect(adjustForApiInvariants(t.records, indexOf(t, resB))).toBe(indexOf(t, first));
  });
});

describe('calculateKeepIndex over generated transcripts', () => {
  it('never starts with an orphan tool_result, never splits a response, and meets the floors when it can', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const t = randomTranscript(seed);
      const records = t.records;
      let floor = 0;
      records.forEach((r, i) => {
        if (r.type === 'system') floor = i + 1;
      });
      for (const cursor of [-1, floor + Math.floor((records.length - floor) / 2), records.length - 1]) {
        const start = calculateKeepIndex(records, cursor, config);
        const kept = records.slice(start);
        expect(start).toBeGreaterThanOrEqual(floor);
        if (cursor >= 0) expect(start).toBeLessThanOrEqual(cursor + 1);
        const seenUses = new Set<string>();
        for (const r of kept) {
          if (r.type === 'system') continue;
          const content = (r as { message: { content: unknown } }).message.content;
          if (!Array.isArray(content)) continue;
          for (const b of content as { type: string; id?: string; tool_use_id?: string }[]) {
            if (b.type === 'tool_use') seenUses.add(b.id!);
            if (b.type === 'tool_result') expect(seenUses.has(b.tool_use_id!), `seed ${seed}: orphan result`).toBe(true);
          }
        }
        const keptIds = new Set(kept.map((r) => (r as { message?: { id?: string } }).message?.id).filter(Boolean));
        for (const r of records.slice(floor, start)) {
          const id = (r as { message?: { id?: string; role?: string } }).message;
          if (id?.role === 'assistant') expect(keptIds.has(id.id), `seed ${seed}: split response`).toBe(false);
        }
        const tokens = tokensFrom(records, start);
        const texts = kept.filter(hasTextBlocks).length;
        if (start > floor) expect(tokens >= config.keepMaxTokens || (tokens >= config.keepMinTokens && texts >= config.keepMinTextMessages)).toBe(true);
      }
    }
  });

  it('extends exactly to the latest start that meets the floors (or the 40,000 stop), then only as far as the API needs', () => {
    const configs = [config, { ...config, keepMinTokens: 2_000, keepMinTextMessages: 2, keepMaxTokens: 6_000 }];
    for (let seed = 1; seed <= 300; seed++) {
      const records = randomTranscript(seed).records;
      const floor = keepFloor(records);
      // Suffix sums: tokens and text messages kept from index i to the end.
      const tokens = new Array<number>(records.length + 1).fill(0);
      const texts = new Array<number>(records.length + 1).fill(0);
      for (let i = records.length - 1; i >= 0; i--) {
        tokens[i] = tokens[i + 1]! + recordTokens(records[i]!);
        texts[i] = texts[i + 1]! + (hasTextBlocks(records[i]!) ? 1 : 0);
      }
      for (const c of configs) {
        const met = (i: number) => tokens[i]! >= c.keepMaxTokens || (tokens[i]! >= c.keepMinTokens && texts[i]! >= c.keepMinTextMessages);
        for (const cursor of [-1, floor, floor + Math.floor((records.length - floor) / 3), records.length - 2, records.length - 1]) {
          if (cursor >= records.length || (cursor >= 0 && cursor < floor)) continue;
          const base = cursor >= 0 ? cursor + 1 : records.length;
          // The latest start at or before the cursor that meets the floors; the floor when none does.
          let wanted = base;
          while (wanted > floor && !met(wanted)) wanted--;
          const start = calculateKeepIndex(records, cursor, c);
          expect(start, `seed ${seed}, cursor ${cursor}`).toBe(adjustForApiInvariants(records, wanted, floor));
          expect(start, `seed ${seed}, cursor ${cursor}`).toBeLessThanOrEqual(wanted);
        }
      }
    }
  });
});
