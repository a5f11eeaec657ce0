import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { text, toolCalls, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const NOTES_PROMPT = 'keep the session notes file current';
const memory = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\ntype: user\n---\n${body}\n`;

/** The main agent writes or deletes a memory for each "remember"/"forget"; the notes fork logs each turn. */
function responder(memoryDir: () => string) {
  let steps = 0;
  return (r: WireRequest) => {
    const last = lastUserText(r);
    if (last.includes('current_notes_content')) {
      const notesPath = /The notes file is (.+)\. It has already been read/.exec(last)![1]!;
      return toolCalls([{ name: 'Edit', input: { file_path: notesPath, old_string: '# Worklog\n', new_string: `# Worklog\n- step ${++steps}\n` } }]);
    }
    if (JSON.stringify(r.messages).includes(NOTES_PROMPT) || last.includes('tool_result')) return text('Done.');
    const file = (name: string) => path.join(memoryDir(), name);
    if (last.includes('prefer tabs')) return toolCalls([{ name: 'Write', input: { file_path: file('feedback_tabs.md'), content: memory('Prefers tabs', 'Indent with tabs') } }]);
    if (last.includes('Friday')) return toolCalls([{ name: 'Write', input: { file_path: file('project_launch.md'), content: memory('Launch day', 'The launch is on Friday') } }]);
    if (last.includes('forget')) return toolCalls([{ name: 'Delete', input: { file_path: file('feedback_tabs.md') } }]);
    return text('The launch is on Friday.');
  };
}

/** Notes after every turn, and a kept window of about one turn: the first turn falls before it. */
const KEEP_ABOUT_ONE_TURN = { keepMinTokens: 100, keepMinTextMessages: 2, keepMaxTokens: 400 };

const cardsOf = (items: ChatItem[]) => items.flatMap((i) => (i.kind === 'memory' ? [`${i.action} ${i.title}`] : []));

/**
 * docs/memory.md#compaction: a compaction shrinks what the model is sent, never what the conversation shows.
 * The transcript → items path keeps every card above the divider, also one whose turn fell before the
 * messages kept word for word, and again when the conversation is read from disk by a fresh app.
 */
describe('the scrollback across a compaction', () => {
  it('keeps a memory card from before the kept window above the divider, live and reopened', async () => {
    let memoryDir = '';
    f = await chatFixture({ fake: { respond: responder(() => memoryDir) } });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await f.call('settings:set', { patch: { memory: { sessionMemory: { minTokensToInit: 50, minTokensBetweenUpdates: 50, toolCallsBetweenUpdates: 1, maxSectionTokens: 2000, maxTotalTokens: 12000 }, compaction: KEEP_ABOUT_ONE_TURN } } });
    await f.restart();
    const sessionId = await f.newSession();
    for (const q of ['Remember that I prefer tabs', 'Remember that the launch is on Friday', 'Please forget the tabs preference']) {
      await f.turn(sessionId, q);
      await f.services.vault().chat.find(sessionId)!.idle();
    }
    const divided = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.upserts.some((i) => i.kind === 'compaction'));
    await f.call('chat:compact', { project: f.project, sessionId });
    const divider = (await divided).upserts.find((i) => i.kind === 'compaction')!;
    expect(divider).toMatchObject({ path: 'session-notes', keptMessages: expect.any(Number) });
    await f.services.vault().chat.find(sessionId)!.idle();
    await f.turn(sessionId, 'When is the launch?');

    // The first turn is outside the kept window: the model is no longer sent its tool call.
    const firstCall = (await f.transcript(sessionId)).find((r) => JSON.stringify(r).includes('feedback_tabs.md') && r.type === 'assistant')!;
    const sent = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(sent).not.toContain(`"${(firstCall.message as { content: { id: string }[] }).content[0]!.id}"`);

    const expected = ['saved Prefers tabs', 'saved Launch day', 'deleted Prefers tabs'];
    for (const reopen of [false, true]) {
      if (reopen) await f.restart();
      const { items } = await f.call('chat:open-session', { project: f.project, sessionId });
      expect(cardsOf(items)).toEqual(expected);
      const at = items.findIndex((i) => i.kind === 'compaction');
      expect(cardsOf(items.slice(0, at))).toEqual(expected);
      expect(items.slice(at + 1).map((i) => i.kind)).toEqual(['user', 'assistant']);
    }
    expectAllAccepted(f.fake);
  });
});
