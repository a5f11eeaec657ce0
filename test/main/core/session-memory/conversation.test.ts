import { describe, expect, it } from 'vitest';
import { conversationView, liveMessages } from '../../../../main/core/session-memory/index.js';
import type { CompactBoundaryRecord } from '../../../../main/core/transcripts/records.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';

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
