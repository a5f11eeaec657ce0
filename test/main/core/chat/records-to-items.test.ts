import { describe, expect, it } from 'vitest';
import { recordsToItems, summarizeToolInput } from '../../../../main/core/chat/records-to-items.js';
import type { MessageRecord, TranscriptRecord } from '../../../../main/core/transcripts/records.js';

let n = 0;
function rec(type: 'user' | 'assistant', content: MessageRecord['message']['content'], extra: Partial<MessageRecord> & { id?: string } = {}): MessageRecord {
  n += 1;
  const { id, ...rest } = extra;
  return {
    type,
    uuid: `u${n}`,
    parentUuid: null,
    sessionId: 's',
    timestamp: `2026-12-01T00:00:${String(n).padStart(2, '0')}Z`,
    cwd: '/p',
    message: { role: type, content, ...(id ? { id } : {}) },
    ...rest,
  };
}

describe('recordsToItems', () => {
  it('shows prompts and answers, merging records that share one API message id', () => {
    const records: TranscriptRecord[] = [
      rec('user', 'hello'),
      rec('assistant', [{ type: 'thinking', thinking: 'hmm', signature: 'x' }], { id: 'msg_1' }),
      rec('assistant', [{ type: 'text', text: 'Hi there' }], { id: 'msg_1' }),
    ];
    const items = recordsToItems(records, '/p');
    expect(items).toMatchObject([
      { kind: 'user', text: 'hello' },
      { kind: 'assistant', text: 'Hi there', thinking: 'hmm' },
    ]);
  });

  it('pairs a tool call with its result and hides the tool-result-only user record', () => {
    const records: TranscriptRecord[] = [
      rec('user', 'read it'),
      rec('assistant', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/p/src/a.ts' } }], { id: 'msg_2' }),
      rec('user', [{ type: 'tool_result', tool_use_id: 't1', content: '1\tconst a = 1;' }]),
      rec('assistant', [{ type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/p/b.ts', content: 'x' } }], { id: 'msg_3' }),
      rec('user', [{ type: 'tool_result', tool_use_id: 't2', content: 'The user declined this write.', is_error: true }]),
    ];
    const items = recordsToItems(records, '/p');
    expect(items).toMatchObject([
      { kind: 'user' },
      { kind: 'tool', id: 't1', name: 'Read', summary: 'src/a.ts', status: 'done', result: '1\tconst a = 1;' },
      { kind: 'tool', id: 't2', status: 'denied', result: 'The user declined this write.' },
    ]);
  });

  it('marks a call cut off before its result as interrupted, unless the turn is live', () => {
    const records: TranscriptRecord[] = [
      rec('user', 'go'),
      rec('assistant', [{ type: 'tool_use', id: 't9', name: 'Grep', input: { pattern: 'TODO', path: '/p/src' } }]),
    ];
    expect(recordsToItems(records, '/p')).toMatchObject([{}, { kind: 'tool', status: 'error', result: 'Interrupted.', summary: 'TODO in src' }]);
    expect(recordsToItems(records, '/p', { live: true })).toMatchObject([{}, { kind: 'tool', status: 'running' }]);
  });

  it('turns a compact boundary into a divider and hides the summary and reminder records', () => {
    const records: TranscriptRecord[] = [
      rec('user', 'old'),
      {
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'b1',
        parentUuid: null,
        sessionId: 's',
        timestamp: 't',
        cwd: '/p',
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 170_000, postTokens: 21_000, path: 'session-notes', reason: null },
      },
      rec('user', 'summary…', { isCompactSummary: true }),
      rec('user', '<system-reminder>…</system-reminder>', { isMeta: true }),
      rec('user', 'new question'),
    ];
    expect(recordsToItems(records, '/p')).toMatchObject([
      { kind: 'user', text: 'old' },
      { kind: 'compaction', tokensBefore: 170_000, tokensAfter: 21_000, path: 'session-notes' },
      { kind: 'user', text: 'new question' },
    ]);
  });

  it('keeps unknown record types out of the view without failing', () => {
    const records: TranscriptRecord[] = [{ type: 'file-history-snapshot', snapshot: {} }, rec('user', 'hi')];
    expect(recordsToItems(records, '/p')).toHaveLength(1);
  });

  it('summarises paths outside the project as absolute', () => {
    expect(summarizeToolInput('Read', { file_path: '/elsewhere/x.md' }, '/p')).toBe('/elsewhere/x.md');
    expect(summarizeToolInput('Write', { file_path: '/vault/projects/-p/memory/user_name.md' }, '/p')).toBe('…/memory/user_name.md');
  });
});
