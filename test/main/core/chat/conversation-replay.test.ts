import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChatDelta, applyChatUpdate } from '../../../../common/chat/apply-update.js';
import type { ChatDelta, ChatItem, ChatSessionView, ChatUpdate } from '../../../../common/domain/chat.js';
import { apiErrors, text, toolCalls, type ScriptedResponse, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** What a row shows; `streaming` is how it looked on the way, not what it is. */
const shown = (items: readonly ChatItem[]) => items.map((i) => (i.kind === 'assistant' ? { ...i, streaming: undefined } : i));

/** Answers the background extractor: one proposed memory on its first run, nothing after. */
function extractorResponder(memoryDir: () => string) {
  let proposed = false;
  return (request: WireRequest): ScriptedResponse => {
    if (lastUserText(request).includes('tool_result')) return text('Done.');
    if (!lastUserText(request).includes('You are the memory extractor') || proposed) return text('Nothing to do.');
    proposed = true;
    return toolCalls([
      {
        name: 'Write',
        input: { file_path: path.join(memoryDir(), 'feedback_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' },
      },
    ]);
  };
}

/**
 * The conversation view is a pure function of the transcript plus live events: the live view (the
 * renderer's own reducer over every event main sent) equals the conversation reopened from its
 * transcript, and again after a restart — with every card kind in it.
 */
describe('a conversation replayed from its transcript', () => {
  it('renders the same cards live, reopened and after a restart', async () => {
    let memoryDir = '';
    f = await chatFixture({ fake: { respond: extractorResponder(() => memoryDir) } });
    await f.switches({ extraction: true, reviewMode: true });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const initial = await f.call('chat:new-session', { project: f.project });
    const sessionId = initial.sessionId;
    const from = f.events.length;
    const idle = () => f!.services.vault().chat.find(sessionId)!.idle();

    // Remembered (and, in the background, a proposed memory waiting in review).
    const name = path.join(memoryDir, 'user_name.md');
    f.fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: name, content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } }]),
      text('I will remember that.'),
    );
    await f.turn(sessionId, 'Remember that my name is Ada');
    await idle();
    // Forgotten.
    f.fake.enqueue(toolCalls([{ name: 'Delete', input: { file_path: name } }]), text('Forgotten.'));
    await f.turn(sessionId, 'Forget my name');
    await idle();
    // A denied write.
    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: path.join(f.project, 'notes.txt'), content: 'x' } }]), text('I left it alone.'));
    const asked = f.next('chat:did-request-permission');
    const denied = f.turn(sessionId, 'Write notes.txt');
    await f.call('chat:answer-permission', { requestId: (await asked).requestId, decision: 'deny' });
    await denied;
    await idle();
    // A stopped answer.
    f.fake.enqueue(text('word '.repeat(400), { chunkChars: 5, chunkDelayMs: 10 }));
    const streaming = f.next('chat:did-stream', (d) => d.sessionId === sessionId);
    const stopped = f.turn(sessionId, 'Tell me a long story');
    await streaming;
    await f.call('chat:stop', { sessionId });
    await stopped;
    await idle();
    // An overloaded API, then Retry.
    f.fake.enqueue(apiErrors.overloaded());
    expect((await f.turn(sessionId, 'And the launch date?')).phase).toBe('error');
    await idle();
    f.fake.enqueue(text('Friday.'));
    const retried = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:retry', { project: f.project, sessionId });
    await retried;
    await idle();
    // A compaction, and a turn after it.
    f.fake.enqueue(text('<summary>1. Primary request: remember the name, the launch is on Friday.</summary>'));
    const compacted = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:compact', { project: f.project, sessionId });
    await compacted;
    f.fake.enqueue(text('Going on.'));
    await f.turn(sessionId, 'Go on');
    await idle();
    // The proposal is accepted elsewhere (the Inbox): its card follows.
    const [proposal] = await f.call('memory:list-proposals', { project: f.project });
    await f.call('memory:resolve-proposal', { project: f.project, id: proposal!.id, decision: 'accept' });

    let live: ChatSessionView = initial;
    for (const e of f.events.slice(from)) {
      if (e.channel === 'chat:did-update' && (e.payload as ChatUpdate).sessionId === sessionId) live = applyChatUpdate(live, e.payload as ChatUpdate);
      if (e.channel === 'chat:did-stream' && (e.payload as ChatDelta).sessionId === sessionId) live = applyChatDelta(live, e.payload as ChatDelta, '');
    }
    const kinds = live.items.map((i) => i.kind);
    for (const kind of ['memory', 'tool', 'turn-end', 'compaction', 'notice'] as const) expect(kinds).toContain(kind);
    const cards = live.items.filter((i) => i.kind === 'memory');
    expect(cards.map((c) => [c.action, c.title, c.state ?? null]).sort()).toEqual([
      ['deleted', 'Their name', null],
      ['saved', 'Prefers tabs', 'accepted'],
      ['saved', 'Their name', null],
    ]);
    expect(live.items.filter((i) => i.kind === 'turn-end').map((i) => i.kind === 'turn-end' && i.reason)).toEqual(['stopped', 'retried']);
    expect(live.items.find((i) => i.kind === 'tool' && i.name === 'Write' && i.summary === 'notes.txt')).toMatchObject({ status: 'denied' });
    expect(live.items.some((i) => i.kind === 'notice' && /Compacting/.test(i.text))).toBe(false);

    const reopened = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(shown(reopened.items)).toEqual(shown(live.items));
    await f.restart();
    const restarted = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(shown(restarted.items)).toEqual(shown(live.items));
    expectAllAccepted(f.fake);
  });

  it('edits a question into a new branch and regenerates an answer; the old versions stay reachable, live and reopened alike', async () => {
    f = await chatFixture();
    const initial = await f.call('chat:new-session', { project: f.project });
    const sessionId = initial.sessionId;
    const from = f.events.length;
    f.fake.enqueue(text('Paris.'));
    await f.turn(sessionId, 'Capital of France?');
    f.fake.enqueue(text('Berlin.'));
    await f.turn(sessionId, 'Capital of Germny?');
    const typo = (await f.call('chat:open-session', { project: f.project, sessionId })).items.find((i) => i.kind === 'user' && i.text === 'Capital of Germny?')!;

    f.fake.enqueue(text('Berlin, of Germany.'));
    const edited = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:send', { project: f.project, sessionId, text: 'Capital of Germany?', replaces: typo.id });
    await edited;
    // The model saw the new question in the old one's place, not both.
    const sent = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(sent).toContain('Capital of Germany?');
    expect(sent).not.toContain('Germny');

    f.fake.enqueue(text('Berlin is the capital of Germany.'));
    const regenerated = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:regenerate', { project: f.project, sessionId });
    await regenerated;
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages)).not.toContain('Berlin, of Germany.');

    let live: ChatSessionView = initial;
    for (const e of f.events.slice(from)) {
      if (e.channel === 'chat:did-update' && (e.payload as ChatUpdate).sessionId === sessionId) live = applyChatUpdate(live, e.payload as ChatUpdate);
      if (e.channel === 'chat:did-stream' && (e.payload as ChatDelta).sessionId === sessionId) live = applyChatDelta(live, e.payload as ChatDelta, '');
    }
    const texts = live.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind));
    expect(texts).toEqual(['Capital of France?', 'Paris.', 'Capital of Germany?', 'Berlin is the capital of Germany.']);
    const question = live.items.find((i) => i.kind === 'user' && i.text === 'Capital of Germany?');
    expect(question?.kind === 'user' && question.earlier).toEqual([
      { question: 'Capital of Germny?', answer: 'Berlin.', leafUuid: expect.any(String) },
      { question: 'Capital of Germany?', answer: 'Berlin, of Germany.', leafUuid: expect.any(String) },
    ]);
    const reopened = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(shown(reopened.items)).toEqual(shown(live.items));
    // The transcript keeps every branch; the reader follows the newest.
    expect(JSON.stringify(await f.transcript(sessionId))).toContain('Capital of Germny?');
    expectAllAccepted(f.fake);
  });

  it('continues from an earlier version: it becomes the conversation, the next message goes on from it, also after a restart', async () => {
    f = await chatFixture();
    const initial = await f.call('chat:new-session', { project: f.project });
    const sessionId = initial.sessionId;
    f.fake.enqueue(text('Paris.'));
    await f.turn(sessionId, 'Capital of France?');
    f.fake.enqueue(text('Berlin.'));
    await f.turn(sessionId, 'Capital of Germany?');
    const first = (await f.call('chat:open-session', { project: f.project, sessionId })).items.find((i) => i.kind === 'user' && i.text === 'Capital of Germany?')!;
    f.fake.enqueue(text('Rome.'));
    const edited = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:send', { project: f.project, sessionId, text: 'Capital of Italy?', replaces: first.id });
    await edited;

    const italy = (await f.call('chat:open-session', { project: f.project, sessionId })).items.find((i) => i.kind === 'user' && i.text === 'Capital of Italy?');
    const older = italy?.kind === 'user' ? italy.earlier?.[0] : undefined;
    expect(older).toMatchObject({ question: 'Capital of Germany?', answer: 'Berlin.' });
    const reset = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.reset === true);
    await f.call('chat:continue-branch', { project: f.project, sessionId, leafUuid: older!.leafUuid });
    const texts = (items: readonly ChatItem[]) => items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind));
    // Every window shows the version taken up again, and the one left as its earlier version.
    const shownNow = (await reset).upserts;
    expect(texts(shownNow)).toEqual(['Capital of France?', 'Paris.', 'Capital of Germany?', 'Berlin.']);
    const germany = shownNow.find((i) => i.kind === 'user' && i.text === 'Capital of Germany?');
    expect(germany?.kind === 'user' && germany.earlier?.map((e) => [e.question, e.answer])).toEqual([['Capital of Italy?', 'Rome.']]);

    // The next message goes on from it: the model sees Germany, not Italy.
    f.fake.enqueue(text('About 3.7 million.'));
    await f.turn(sessionId, 'How many people live there?');
    const sent = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(sent).toContain('Capital of Germany?');
    expect(sent).not.toContain('Capital of Italy?');

    await f.restart();
    const reopened = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(texts(reopened.items)).toEqual(['Capital of France?', 'Paris.', 'Capital of Germany?', 'Berlin.', 'How many people live there?', 'About 3.7 million.']);
    // Taken up already: asking again changes nothing.
    const size = (await f.transcript(sessionId)).length;
    await f.call('chat:continue-branch', { project: f.project, sessionId, leafUuid: reopened.items.find((i) => i.kind === 'user' && i.text.startsWith('How many'))!.id });
    expect((await f.transcript(sessionId)).length).toBe(size);
    expectAllAccepted(f.fake);
  });

  it('continues from a version that remembered something: its memory card follows, with a working Undo, also reopened and after a restart', async () => {
    f = await chatFixture();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const initial = await f.call('chat:new-session', { project: f.project });
    const sessionId = initial.sessionId;
    const name = path.join(memoryDir, 'user_name.md');
    f.fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: name, content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } }]),
      text('I will remember that.'),
    );
    await f.turn(sessionId, 'Remember that my name is Ada');
    const question = (await f.call('chat:open-session', { project: f.project, sessionId })).items.find((i) => i.kind === 'user')!;
    const cardsOf = (items: readonly ChatItem[]) => items.filter((i) => i.kind === 'memory');
    expect(cardsOf((await f.call('chat:open-session', { project: f.project, sessionId })).items)).toHaveLength(1);

    // Edited into a question that remembers nothing: that version shows no card.
    f.fake.enqueue(text('4.'));
    const edited = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:send', { project: f.project, sessionId, text: 'What is 2 + 2?', replaces: question.id });
    await edited;
    const now = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(cardsOf(now.items)).toEqual([]);
    const edit = now.items.find((i) => i.kind === 'user' && i.text === 'What is 2 + 2?');
    const remembered = edit?.kind === 'user' ? edit.earlier?.[0] : undefined;
    expect(remembered).toMatchObject({ question: 'Remember that my name is Ada' });

    // Continued from the version that remembered: the card shows there again, under its answer.
    const reset = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.reset === true);
    await f.call('chat:continue-branch', { project: f.project, sessionId, leafUuid: remembered!.leafUuid });
    const rows = (items: readonly ChatItem[]) =>
      items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind === 'memory' ? `${i.action} ${i.title}${i.state ? ` (${i.state})` : ''}` : i.kind));
    const shownNow = (await reset).upserts;
    expect(rows(shownNow).filter((r) => r !== 'tool')).toEqual(['Remember that my name is Ada', 'saved Their name', 'I will remember that.']);
    const [card] = cardsOf(shownNow);
    expect(card?.kind === 'memory' && card.undoToken).toEqual(expect.any(String));
    expect(rows((await f.call('chat:open-session', { project: f.project, sessionId })).items)).toEqual(rows(shownNow));

    // Its Undo still works, and the card there says so.
    const undone = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.upserts.some((i) => i.kind === 'memory' && i.state === 'undone'));
    expect(await f.call('chat:undo-memory', { undoToken: card!.kind === 'memory' ? card!.undoToken! : '' })).toEqual({ undone: true });
    await undone;
    await expect(fs.access(name)).rejects.toThrow();
    const afterUndo = rows((await f.call('chat:open-session', { project: f.project, sessionId })).items);
    expect(afterUndo).toContain('saved Their name (undone)');

    // Left and taken up again: the card comes in its newest state, once.
    const again = (await f.call('chat:open-session', { project: f.project, sessionId })).items.find((i) => i.kind === 'user' && i.text === 'Remember that my name is Ada');
    const twoPlusTwo = again?.kind === 'user' ? again.earlier?.find((e) => e.question === 'What is 2 + 2?') : undefined;
    await f.call('chat:continue-branch', { project: f.project, sessionId, leafUuid: twoPlusTwo!.leafUuid });
    expect(cardsOf((await f.call('chat:open-session', { project: f.project, sessionId })).items)).toEqual([]);
    const back = (await f.call('chat:open-session', { project: f.project, sessionId })).items.find((i) => i.kind === 'user' && i.text === 'What is 2 + 2?');
    const toMemory = back?.kind === 'user' ? back.earlier?.find((e) => e.question === 'Remember that my name is Ada') : undefined;
    await f.call('chat:continue-branch', { project: f.project, sessionId, leafUuid: toMemory!.leafUuid });
    await f.restart();
    expect(rows((await f.call('chat:open-session', { project: f.project, sessionId })).items)).toEqual(afterUndo);
    expectAllAccepted(f.fake);
  });
});
