import { describe, expect, it } from 'vitest';
import { conversationChain } from '../../../../main/core/transcripts/conversation-chain.js';
import type { TranscriptRecord } from '../../../../main/core/transcripts/records.js';

let clock = 0;
const rec = (uuid: string, parentUuid: string | null, type = 'user', extra: Record<string, unknown> = {}): TranscriptRecord =>
  ({
    uuid,
    parentUuid,
    type,
    sessionId: 's',
    cwd: '/p',
    timestamp: new Date(++clock * 1000).toISOString(),
    message: { role: type === 'assistant' ? 'assistant' : 'user', content: uuid },
    ...extra,
  }) as TranscriptRecord;

const uuids = (records: TranscriptRecord[]) => records.map((r) => r.uuid);

describe('conversationChain', () => {
  it('follows parent links from the newest message, dropping an abandoned branch', () => {
    const records = [rec('a', null), rec('b', 'a', 'assistant'), rec('c1', 'b'), rec('d1', 'c1', 'assistant'), rec('c2', 'b'), rec('d2', 'c2', 'assistant')];
    const chain = conversationChain(records);
    expect(uuids(chain.messages)).toEqual(['a', 'b', 'c2', 'd2']);
    expect(chain.brokenLinks).toBe(0);
  });

  it('leaves out sidechain records and records without uuid (titles, summaries)', () => {
    const records = [
      rec('a', null),
      rec('side', 'a', 'assistant', { isSidechain: true }),
      rec('b', 'a', 'assistant'),
      { type: 'custom-title', customTitle: 'x', sessionId: 's' },
      rec('side2', 'b', 'user', { isSidechain: true }),
    ];
    expect(uuids(conversationChain(records).records)).toEqual(['a', 'b']);
  });

  it('starts at the last compact boundary, which has no parent', () => {
    const boundary = { type: 'system', subtype: 'compact_boundary', uuid: 'cb', parentUuid: null, logicalParentUuid: 'b', content: 'compacted' } as TranscriptRecord;
    const records = [rec('a', null), rec('b', 'a', 'assistant'), boundary, rec('sum', 'cb', 'user', { isCompactSummary: true }), rec('c', 'sum', 'assistant')];
    const chain = conversationChain(records);
    expect(uuids(chain.records)).toEqual(['cb', 'sum', 'c']);
    expect(uuids(chain.messages)).toEqual(['sum', 'c']);
  });

  it('reads the records a session-memory compaction kept as following its summary', () => {
    const boundary = {
      type: 'system',
      subtype: 'compact_boundary',
      uuid: 'cb',
      parentUuid: null,
      content: 'compacted',
      compactMetadata: { trigger: 'manual', preTokens: 10, preservedSegment: { headUuid: 'b', anchorUuid: 'sum', tailUuid: 'c' } },
    } as TranscriptRecord;
    // The kept records b and c are appended again verbatim: b still names its old parent a.
    const records = [rec('a', null), rec('b', 'a', 'assistant'), rec('c', 'b'), boundary, rec('sum', 'cb', 'user', { isCompactSummary: true }), rec('b', 'a', 'assistant'), rec('c', 'b'), rec('d', 'c', 'assistant')];
    expect(uuids(conversationChain(records).records)).toEqual(['cb', 'sum', 'b', 'c', 'd']);
  });

  it('bridges a parent lost to a malformed line by file order instead of cutting the conversation', () => {
    const records = [rec('a', null), rec('b', 'a', 'assistant'), rec('d', 'lost', 'assistant')];
    const chain = conversationChain(records);
    expect(uuids(chain.messages)).toEqual(['a', 'b', 'd']);
    expect(chain.brokenLinks).toBe(1);
  });

  it('returns an empty chain for a transcript with no messages and survives a parent cycle', () => {
    expect(conversationChain([{ type: 'summary', summary: 'x' }]).records).toEqual([]);
    expect(uuids(conversationChain([rec('a', 'b'), rec('b', 'a', 'assistant')]).messages)).toEqual(['a', 'b']);
  });
});
