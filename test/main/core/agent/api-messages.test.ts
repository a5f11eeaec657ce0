import { describe, expect, it } from 'vitest';
import { INTERRUPTED_RESULT, toApiMessages } from '../../../../main/core/agent/index.js';
import type { TranscriptRecord } from '../../../../main/core/transcripts/records.js';
import { validateRequest } from '../../../fakes/anthropic-server/validate.js';

let n = 0;
const base = () => ({ uuid: `u${++n}`, parentUuid: null, sessionId: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/p' });
const user = (content: unknown): TranscriptRecord => ({ ...base(), type: 'user', message: { role: 'user', content } }) as TranscriptRecord;
const asst = (content: unknown, id?: string): TranscriptRecord =>
  ({ ...base(), type: 'assistant', message: { role: 'assistant', content, ...(id ? { id } : {}) } }) as TranscriptRecord;
const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: 'a' } });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'r' });
const strictOk = (messages: unknown) => validateRequest({ model: 'm', max_tokens: 1, messages: messages as never }, true);

describe('toApiMessages', () => {
  it('merges records of one API response, even with tool results in between, and same-role runs', () => {
    const out = toApiMessages([
      user('hi'),
      { type: 'file-history-snapshot', uuid: 'x' },
      asst([{ type: 'text', text: 'let me look' }], 'msg_1'),
      asst([use('t1')], 'msg_1'),
      user([result('t1')]),
      asst([use('t2')], 'msg_1'),
      user([result('t2')]),
      user('and more'),
    ]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect((out[1]!.content as unknown[]).length).toBe(3);
    expect((out[2]!.content as { type: string }[]).map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(strictOk(out)).toBeNull();
  });

  it('uses only messages after the last compact boundary and drops empty text', () => {
    const out = toApiMessages([
      user('old'),
      asst('old answer'),
      { ...base(), type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 1 } },
      user('summary'),
      asst([{ type: 'text', text: '' }, { type: 'text', text: 'new' }]),
    ]);
    expect(out).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'summary' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'new' }] },
    ]);
  });

  it('repairs a dangling tool_use with an interrupted result and drops an orphan result', () => {
    const out = toApiMessages([user('go'), asst([use('t1'), use('t2')], 'msg_9'), user([result('t2'), result('zz')]), user('next')]);
    const results = out[2]!.content as { type: string; tool_use_id?: string; content?: string }[];
    expect(results.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id).sort()).toEqual(['t1', 't2']);
    expect(results.find((b) => b.tool_use_id === 't1')!.content).toBe(INTERRUPTED_RESULT);
    expect(strictOk(out)).toBeNull();
    const trailing = toApiMessages([user('go'), asst([use('t3')])]);
    expect(trailing.at(-1)!.role).toBe('user');
    expect(strictOk(trailing)).toBeNull();
  });
});
