import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { resultRecords, sessionMemoryCompact } from '../../../../main/core/compact/index.js';
import { estimateMessagesTokens } from '../../../../main/core/llm/tokens.js';
import { DEFAULT_NOTES_TEMPLATE, conversationView, liveContextTokens, liveMessages } from '../../../../main/core/session-memory/index.js';
import { isMessageRecord, type CompactBoundaryRecord } from '../../../../main/core/transcripts/records.js';
import { TranscriptBuilder, textOfTokens } from '../../../fixtures/transcripts/transcript-builder.js';

describe('conversationView', () => {
  it('is every main-thread message without a boundary, sidechains left out', () => {
    const t = new TranscriptBuilder();
    t.user('a');
    t.user('side', { isSidechain: true });
    t.assistant('b');
    t.records.push({ type: 'file-history-snapshot' });
    expect(conversationView(t.records).map((r) => r.uuid)).toEqual(['u1', 'u3']);
  });

  it('starts at the last boundary', () => {
    const t = new TranscriptBuilder();
    t.user('a');
    t.boundary();
    t.user('s1', { isCompactSummary: true });
    t.boundary();
    t.user('s2', { isCompactSummary: true });
    t.assistant('b');
    expect(conversationView(t.records).map((r) => r.uuid)).toEqual(['u4', 'u5', 'u6']);
    expect(liveMessages(t.records).map((r) => r.uuid)).toEqual(['u5', 'u6']);
  });

  it('splices in the kept segment a Claude Code boundary names but does not repeat', () => {
    const t = new TranscriptBuilder();
    t.user('old');
    t.user('kept 1');
    t.assistant('kept 2');
    const b = t.boundary();
    const summary = t.user('summary', { isCompactSummary: true });
    t.user('new');
    (t.records.find((r) => r.uuid === b) as CompactBoundaryRecord).compactMetadata.preservedSegment = { headUuid: 'u2', anchorUuid: summary, tailUuid: 'u3' };
    expect(liveMessages(t.records).map((r) => r.uuid)).toEqual([summary, 'u2', 'u3', 'u6']);
  });

  it('does not splice when the kept records follow the boundary (our own compactions)', () => {
    const t = new TranscriptBuilder();
    t.user('old');
    t.user('kept');
    const b = t.boundary();
    const summary = t.user('summary', { isCompactSummary: true });
    t.records.push({ ...t.records[1]! });
    (t.records.find((r) => r.uuid === b) as CompactBoundaryRecord).compactMetadata.preservedSegment = { headUuid: 'u2', anchorUuid: summary, tailUuid: 'u2' };
    expect(liveMessages(t.records).map((r) => r.uuid)).toEqual([summary, 'u2']);
  });
});

describe('liveContextTokens', () => {
  function compacted() {
    const t = new TranscriptBuilder();
    for (let i = 0; i < 20; i++) {
      t.user(textOfTokens(2_000));
      t.assistant(textOfTokens(500), { usage: { input_tokens: 2_500 * (i + 1), output_tokens: 500 } });
    }
    const before = liveContextTokens(t.records);
    const out = sessionMemoryCompact({
      records: t.records,
      notes: DEFAULT_NOTES_TEMPLATE.replace('# Current State\n', '# Current State\nParsing.\n'),
      template: DEFAULT_NOTES_TEMPLATE,
      lastSummarizedMessageId: null,
      notesPath: '/notes.md',
      trigger: 'manual',
      config: defaultMemoryConfig.compaction,
    });
    if (!out.ok) throw new Error(out.reason);
    t.records.push(...resultRecords(out.result));
    return { t, before, kept: out.result.kept.length };
  }

  it('is the newest usage plus the estimate after it when nothing was compacted', () => {
    const { before } = compacted();
    expect(before).toBe(50_000 + 500);
  });

  it('estimates the kept responses after a compaction instead of trusting their pre-compaction usage', () => {
    const { t, kept } = compacted();
    expect(kept).toBeGreaterThan(0);
    const live = liveMessages(t.records);
    expect(liveContextTokens(t.records)).toBe(estimateMessagesTokens(live.map((r) => r.message)));
    expect(liveContextTokens(t.records)).toBeLessThan(20_000);
  });

  it('uses the first response after the compaction again', () => {
    const { t } = compacted();
    t.records.push({ ...t.records.filter(isMessageRecord).at(-1)!, uuid: 'fresh', parentUuid: null, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: 14_000, output_tokens: 10 } } });
    expect(liveContextTokens(t.records)).toBe(14_010);
  });
});
