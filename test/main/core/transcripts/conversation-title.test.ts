import { describe, expect, it } from 'vitest';
import { conversationTitle, currentFirstQuestion, type TranscriptRecord } from '../../../../main/core/transcripts/index.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';

describe('a conversation’s title', () => {
  it('is the first question of the branch now current: an edited first question names it, the old one no longer does', () => {
    const t = new TranscriptBuilder();
    t.user('can u help with the thing');
    t.assistant('Which thing?');
    // Edit and resend: a second question with the same parent (none), answered on its own branch.
    t.records.push({ ...t.records[0]!, uuid: 'edited', parentUuid: null, message: { role: 'user', content: 'Plan the Friday launch' } } as TranscriptRecord);
    t.records.push({ ...t.records[1]!, uuid: 'answer', parentUuid: 'edited' } as TranscriptRecord);
    expect(currentFirstQuestion(t.records)).toBe('Plan the Friday launch');
    // "Continue from this version" copies the first branch after the second: it names it again.
    t.records.push({ ...t.records[0]!, uuid: 'copy', parentUuid: null } as TranscriptRecord);
    expect(currentFirstQuestion(t.records)).toBe('can u help with the thing');
  });

  it('reaches back across a compaction to the question the conversation began with', () => {
    const t = new TranscriptBuilder();
    t.user('Plan the Friday launch');
    const last = t.assistant('Sure.');
    t.records.push({ type: 'system', subtype: 'compact_boundary', uuid: 'b1', parentUuid: null, logicalParentUuid: last, content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 10 } } as TranscriptRecord);
    t.records.push({ type: 'user', uuid: 's1', parentUuid: 'b1', isCompactSummary: true, message: { role: 'user', content: 'Summary' } } as TranscriptRecord);
    t.records.push({ type: 'user', uuid: 'q2', parentUuid: 's1', message: { role: 'user', content: 'And the checklist?' } } as TranscriptRecord);
    expect(currentFirstQuestion(t.records)).toBe('Plan the Friday launch');
  });

  it('is a rename, else the notes’ Session Title, else a summary, else the first question', () => {
    const notes = '# Session Title\n_A short, distinctive title_\n\nFriday launch checklist\n\n# Current State\n_x_\n';
    const parts = { custom: null, notes: null, summary: null, firstQuestion: 'Plan the Friday launch' };
    expect(conversationTitle(parts)).toBe('Plan the Friday launch');
    expect(conversationTitle({ ...parts, summary: 'Launch planning' })).toBe('Launch planning');
    expect(conversationTitle({ ...parts, summary: 'Launch planning', notes })).toBe('Friday launch checklist');
    expect(conversationTitle({ ...parts, notes: '# Session Title\n_A short, distinctive title_\n' })).toBe('Plan the Friday launch');
    expect(conversationTitle({ ...parts, notes, custom: 'Launch' })).toBe('Launch');
  });
});
