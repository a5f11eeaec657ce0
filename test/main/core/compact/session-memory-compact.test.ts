import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { TRUNCATION_MARKER, sessionMemoryCompact, truncateNotesForCompact, type SessionMemoryCompactInput } from '../../../../main/core/compact/index.js';
import { DEFAULT_NOTES_TEMPLATE, parseSections } from '../../../../main/core/session-memory/index.js';
import type Anthropic from '@anthropic-ai/sdk';
import { mergeSameRole } from '../../../../main/core/agent/api-messages.js';
import type { MessageRecord } from '../../../../main/core/transcripts/records.js';
import { validateRequest, type WireRequest } from '../../../fakes/anthropic-server/validate.js';
import { apiProblems, randomTranscript } from '../../../fixtures/transcripts/random-transcript.js';
import { TranscriptBuilder, textOfTokens } from '../../../fixtures/transcripts/transcript-builder.js';

const config = defaultMemoryConfig.compaction;
const notes = DEFAULT_NOTES_TEMPLATE.replace('# Current State\n', '# Current State\nWriting the parser tests.\n');

function conversation() {
  const t = new TranscriptBuilder();
  for (let i = 0; i < 30; i++) {
    t.user(`question ${i} ${textOfTokens(1_000)}`);
    t.assistant(textOfTokens(2_000), i === 29 ? { usage: { input_tokens: 95_000, output_tokens: 500 } } : {});
  }
  return t;
}

function input(t: TranscriptBuilder, over: Partial<SessionMemoryCompactInput> = {}): SessionMemoryCompactInput {
  let n = 0;
  return {
    records: t.records,
    notes,
    template: DEFAULT_NOTES_TEMPLATE,
    lastSummarizedMessageId: t.records[49]!.uuid!,
    notesPath: '/vault/projects/p/session-1/session-memory/summary.md',
    transcriptPath: '/vault/projects/p/session-1.jsonl',
    trigger: 'auto',
    config,
    newUuid: () => `new-${++n}`,
    now: () => new Date('2026-02-01T00:00:00Z'),
    ...over,
  };
}

describe('sessionMemoryCompact', () => {
  it('returns a boundary, one summary message with the notes, then the kept records verbatim', () => {
    const t = conversation();
    const before = JSON.stringify(t.records);
    const out = sessionMemoryCompact(input(t));
    expect(JSON.stringify(t.records)).toBe(before);
    if (!out.ok) throw new Error(out.reason);
    const { boundary, summary, kept, tokensBefore, tokensAfter } = out.result;
    expect(boundary).toMatchObject({
      type: 'system',
      subtype: 'compact_boundary',
      parentUuid: null,
      logicalParentUuid: 'u60',
      sessionId: 'session-1',
      compactMetadata: { trigger: 'auto', preTokens: 95_500, preservedSegment: { headUuid: 'u51', anchorUuid: summary.uuid, tailUuid: 'u60' } },
    });
    expect(summary).toMatchObject({ type: 'user', isCompactSummary: true, parentUuid: boundary.uuid });
    const text = (summary.message.content as { text: string }[])[0]!.text;
    expect(text).toContain('Writing the parser tests.');
    expect(text).toContain('/vault/projects/p/session-1/session-memory/summary.md');
    expect(text).toContain('/vault/projects/p/session-1.jsonl');
    expect(kept.map((r) => r.uuid)).toEqual(t.records.slice(50).map((r) => r.uuid));
    expect(kept[0]).toBe(t.records[50]);
    expect(tokensBefore).toBe(95_500);
    // Five user (≈1,003) and five assistant (2,000) records, plus the summary message.
    expect(tokensAfter).toBeGreaterThan(15_015);
    expect(tokensAfter).toBeLessThan(16_000);
  });

  it('falls back with no-notes when the notes file is missing', () => {
    expect(sessionMemoryCompact(input(conversation(), { notes: null }))).toMatchObject({ ok: false, reason: 'no-notes' });
  });

  it('falls back with template when the notes are still the template, custom or emptied', () => {
    expect(sessionMemoryCompact(input(conversation(), { notes: `${DEFAULT_NOTES_TEMPLATE}\n\n` }))).toMatchObject({ ok: false, reason: 'template' });
    expect(sessionMemoryCompact(input(conversation(), { notes: '# Mine\n', template: '# Mine' }))).toMatchObject({ ok: false, reason: 'template' });
    expect(sessionMemoryCompact(input(conversation(), { notes: '' }))).toMatchObject({ ok: false, reason: 'template' });
  });

  it('falls back with boundary-not-found when the cursor is not in the conversation', () => {
    expect(sessionMemoryCompact(input(conversation(), { lastSummarizedMessageId: 'gone' }))).toMatchObject({ ok: false, reason: 'boundary-not-found' });
  });

  it('falls back with boundary-not-found when the cursor points at a message compacted away', () => {
    const t = conversation();
    t.boundary();
    t.user('summary', { isCompactSummary: true });
    t.assistant('after');
    expect(sessionMemoryCompact(input(t, { lastSummarizedMessageId: 'u10' }))).toMatchObject({ ok: false, reason: 'boundary-not-found' });
  });

  it('falls back for size only when given a threshold', () => {
    const t = conversation();
    expect(sessionMemoryCompact(input(t, { lastSummarizedMessageId: 'u2', threshold: 167_000 }))).toMatchObject({ ok: true });
    expect(sessionMemoryCompact(input(t, { lastSummarizedMessageId: 'u2', threshold: 50_000 }))).toMatchObject({ ok: false, reason: 'over-threshold' });
    expect(sessionMemoryCompact(input(t, { lastSummarizedMessageId: 'u2' }))).toMatchObject({ ok: true });
  });

  it('falls back with error on records it cannot read', () => {
    const t = conversation();
    (t.records[55] as MessageRecord).message.content = null as unknown as string;
    expect(sessionMemoryCompact(input(t))).toMatchObject({ ok: false, reason: 'error' });
  });

  it('without a cursor keeps the recent end of the conversation', () => {
    const out = sessionMemoryCompact(input(conversation(), { lastSummarizedMessageId: null }));
    if (!out.ok) throw new Error(out.reason);
    expect(out.result.kept.map((r) => r.uuid)).toEqual(['u54', 'u55', 'u56', 'u57', 'u58', 'u59', 'u60']);
  });

  it('keeps nothing from before an earlier boundary and drops the boundary itself', () => {
    const t = conversation();
    t.boundary();
    const summary = t.user('earlier summary', { isCompactSummary: true });
    t.assistant('one');
    t.user('two');
    const out = sessionMemoryCompact(input(t, { lastSummarizedMessageId: null }));
    if (!out.ok) throw new Error(out.reason);
    expect(out.result.kept.map((r) => r.uuid)).toEqual([summary, 'u63', 'u64']);
  });

  it('cuts each section of huge notes at 8,000 characters on whole lines and says where the full notes are', () => {
    const line = `${'z'.repeat(99)}\n`;
    const huge = DEFAULT_NOTES_TEMPLATE.replace('# Worklog\n', `# Worklog\n${line.repeat(50_000)}`).replace('# Learnings\n', `# Learnings\n${line.repeat(100)}`);
    expect(huge.length).toBeGreaterThan(5_000_000);
    const out = sessionMemoryCompact(input(conversation(), { notes: huge }));
    if (!out.ok) throw new Error(out.reason);
    const text = (out.result.summary.message.content as { text: string }[])[0]!.text;
    expect(text.length).toBeLessThan(40_000);
    expect(text).toContain(`Some sections above were cut for length; the complete session notes are in /vault/projects/p/session-1/session-memory/summary.md`);
    const sections = parseSections(text).sections;
    const worklog = sections.find((s) => s.title === 'Worklog')!;
    expect(worklog.body).toContain(TRUNCATION_MARKER);
    expect(sections.find((s) => s.title === 'Learnings')!.body).toContain(TRUNCATION_MARKER);
    expect(sections.find((s) => s.title === 'Current State')!.body).not.toContain(TRUNCATION_MARKER);
  });
});

describe('truncateNotesForCompact', () => {
  it('keeps whole lines up to the limit, then a marker line', () => {
    const { text, truncated } = truncateNotesForCompact(`# A\n${'abc\n'.repeat(10)}# B\nshort\n`, 10);
    expect(truncated).toBe(true);
    expect(text).toBe(`# A\nabc\nabc\n${TRUNCATION_MARKER}\n\n# B\nshort\n`);
  });

  it('leaves notes within the limit untouched', () => {
    expect(truncateNotesForCompact(DEFAULT_NOTES_TEMPLATE, 8_000)).toEqual({ text: DEFAULT_NOTES_TEMPLATE, truncated: false });
  });
});

describe('sessionMemoryCompact over generated transcripts', () => {
  it('produces conversations the strict API accepts, keeps whole responses, and meets the threshold when it compacts', () => {
    const configs = [config, { ...config, keepMinTokens: 2_000, keepMinTextMessages: 2, keepMaxTokens: 6_000 }];
    for (let seed = 1; seed <= 150; seed++) {
      const t = randomTranscript(seed);
      const live = t.records.filter((r) => r.type !== 'system');
      for (const c of configs) {
        for (const cursor of [null, live[Math.floor(live.length / 2)]!.uuid!, live[live.length - 1]!.uuid!]) {
          for (const threshold of [undefined, 8_000 + ((seed * 7_919) % 40_000)]) {
            const out = sessionMemoryCompact(input(t, { lastSummarizedMessageId: cursor, config: c, ...(threshold ? { threshold } : {}) }));
            if (!out.ok) {
              // A cursor before the newest boundary is "compacted away"; a small threshold may not be met.
              expect(['boundary-not-found', 'over-threshold'], `seed ${seed}`).toContain(out.reason);
              if (out.reason === 'over-threshold') {
                const unchecked = sessionMemoryCompact(input(t, { lastSummarizedMessageId: cursor, config: c }));
                expect(unchecked.ok && unchecked.result.tokensAfter >= threshold!, `seed ${seed}`).toBe(true);
              }
              continue;
            }
            if (threshold) expect(out.result.tokensAfter, `seed ${seed}`).toBeLessThan(threshold);
            const { kept } = out.result;
            expect(kept.some((r) => r.type === 'system'), `seed ${seed}: a boundary kept`).toBe(false);
            // Verbatim: the records' own objects, the tail of what follows the last boundary, in order.
            const view = t.records.slice(t.records.findLastIndex((r) => r.type === 'system') + 1);
            const tail = view.slice(view.length - kept.length);
            expect(kept.every((r, i) => r === tail[i]), `seed ${seed}: not the verbatim tail`).toBe(true);
            // No API response split between what is dropped and what is kept.
            const keptIds = new Set(kept.map((r) => (r as MessageRecord).message.id).filter(Boolean));
            for (const r of view.slice(0, view.length - kept.length)) {
              const m = (r as MessageRecord).message;
              if (m.role === 'assistant' && m.id) expect(keptIds.has(m.id), `seed ${seed}: split response ${m.id}`).toBe(false);
            }
            const messages = [out.result.summary, ...kept].map((r) => (r as MessageRecord).message);
            expect(apiProblems(messages), `seed ${seed}`).toEqual([]);
            // The raw summary and kept messages, judged by the strict fake API. Only same-role neighbours
            // are merged (one response spans several records); no tool-pair repair, which would hide an orphan.
            const wire = mergeSameRole(messages.map((m) => ({ role: m.role, content: m.content }) as Anthropic.MessageParam)) as WireRequest['messages'];
            expect(validateRequest({ model: 'claude-test', max_tokens: 1024, messages: wire }, true), `seed ${seed}`).toBeNull();
          }
        }
      }
    }
  });
});
