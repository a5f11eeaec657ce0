import { describe, expect, it } from 'vitest';
import { INTERRUPTED_RESULT, toApiMessages } from '../../../../main/core/agent/index.js';
import { contextReminderRecord } from '../../../../main/core/transcripts/context-reminder.js';
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

describe('toApiMessages and Claude Code transcripts', () => {
  const boundary = () =>
    ({ ...base(), type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 9 } }) as TranscriptRecord;

  it('sends the compact summary Claude Code writes (transcript-only flagged) and leaves other transcript-only rows out', () => {
    const out = toApiMessages([
      user('before'),
      asst('old'),
      boundary(),
      { ...user('Summary: the user planned a launch.'), isCompactSummary: true, isVisibleInTranscriptOnly: true } as TranscriptRecord,
      { ...user('a row only the transcript shows'), isVisibleInTranscriptOnly: true } as TranscriptRecord,
      user('after'),
    ]);
    const sent = JSON.stringify(out);
    expect(sent).toContain('Summary: the user planned a launch.');
    expect(sent).not.toContain('a row only the transcript shows');
    expect(sent).not.toContain('before');
  });

  it('puts the newest context reminder at the head of the first user message and sends no older one', () => {
    const reminder = (text: string) => contextReminderRecord({ ...base(), text: `<system-reminder>\n${text}\n</system-reminder>` });
    const legacy = { ...user("<system-reminder>\nUse the following context when it helps with the user's request.\nold day"), isMeta: true } as TranscriptRecord;
    const out = toApiMessages([legacy, user('first'), asst('one'), reminder('new day'), user('second')]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const first = out[0]!.content as { text: string }[];
    expect(first.map((b) => b.text)).toEqual(['<system-reminder>\nnew day\n</system-reminder>', 'first']);
    expect(JSON.stringify(out)).not.toContain('old day');
    expect(strictOk(out)).toBeNull();
    // A legacy reminder alone is still sent, at the head.
    const onlyLegacy = toApiMessages([user('q'), asst('a'), legacy, user('r')]);
    expect((onlyLegacy[0]!.content as { text: string }[])[0]!.text).toContain('old day');
    expect(JSON.stringify(onlyLegacy.slice(1))).not.toContain('old day');
  });

  it('puts the reminder before a compact summary, as Claude Code prepends its context to the resumed messages', () => {
    const out = toApiMessages([
      user('before'),
      boundary(),
      { ...user('the summary'), isCompactSummary: true, isVisibleInTranscriptOnly: true } as TranscriptRecord,
      contextReminderRecord({ ...base(), text: 'CTX' }),
      user('next'),
    ]);
    expect((out[0]!.content as { text: string }[]).map((b) => b.text)).toEqual(['CTX', 'the summary', 'next']);
  });
});
