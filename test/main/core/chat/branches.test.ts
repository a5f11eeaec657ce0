import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { withEarlierVersions } from '../../../../main/core/chat/branches.js';
import { displayRecords, recordsToItems } from '../../../../main/core/chat/records-to-items.js';
import type { TranscriptRecord } from '../../../../main/core/transcripts/records.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';

const view = (file: TranscriptRecord[]): ChatItem[] => withEarlierVersions(recordsToItems(displayRecords(file), '/project'), file);
const earlierOf = (items: ChatItem[], text: string) => items.find((i): i is Extract<ChatItem, { kind: 'user' }> => i.kind === 'user' && i.text === text)?.earlier;

describe('earlier versions of a question', () => {
  it('are not made up by a compaction that kept the question and its answer word for word', () => {
    const t = new TranscriptBuilder();
    t.user('First question');
    t.assistant('First answer.');
    const question = t.user('The checklist?');
    const answer = t.assistant('The checklist has three');
    const boundary = t.boundary();
    const summary = t.user('Summary of the conversation so far.', { isCompactSummary: true });
    // The kept records go into the transcript again, under their own uuids (docs/memory.md#compaction).
    const kept = t.records.filter((r) => r.uuid === question || r.uuid === answer).map((r) => structuredClone(r));
    t.records.push(...kept);
    const b = t.records.find((r) => r.uuid === boundary)!;
    Object.assign(b, { compactMetadata: { ...(b as { compactMetadata: object }).compactMetadata, preservedSegment: { headUuid: question, anchorUuid: summary, tailUuid: answer } } });
    t.user('When is the launch?');
    t.assistant('Friday.');

    const items = view(t.records);
    expect(earlierOf(items, 'The checklist?')).toBeUndefined();
    expect(items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual(['First question', 'The checklist?', 'When is the launch?']);
  });

  it('are still shown for an answer regenerated beside the first one', () => {
    const t = new TranscriptBuilder();
    const question = t.user('Capital of Germany?');
    t.assistant('Berlin.');
    const regenerated = t.assistant('Berlin is the capital.');
    Object.assign(t.records.find((r) => r.uuid === regenerated)!, { parentUuid: question });
    expect(earlierOf(view(t.records), 'Capital of Germany?')).toEqual([{ question: 'Capital of Germany?', answer: 'Berlin.', leafUuid: 'u2' }]);
  });
});
