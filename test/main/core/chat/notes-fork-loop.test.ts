import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileCursorStore } from '../../../../main/core/auto-memory/extraction-cursor.js';
import type { ScriptedResponse, WireRequest } from '../../../fakes/anthropic-server/index.js';
import { apiErrors, text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const smallThresholds = { minTokensToInit: 50, minTokensBetweenUpdates: 50, toolCallsBetweenUpdates: 1, maxSectionTokens: 2000, maxTotalTokens: 12000 };

/** The fake answers the notes fork with `onNotes`; everything else gets a long reply (the main turn). */
async function notesLoop(onNotes: (request: WireRequest) => ScriptedResponse) {
  const box: { notesPath: string } = { notesPath: '' };
  f = await chatFixture({
    fake: {
      respond: (request) => {
        if (box.notesPath && lastUserText(request).includes(box.notesPath)) return onNotes(request);
        if (lastUserText(request).includes('tool_result')) return text('Done.');
        return text('The launch is on Friday. '.repeat(20));
      },
    },
  });
  await f.call('settings:set', { patch: { memory: { sessionMemory: smallThresholds } } });
  await f.restart();
  const sessionId = await f.newSession();
  box.notesPath = await f.services.vault().chat.engines.notes.notesPath(f.project, sessionId);
  return { f, sessionId, notesPath: box.notesPath };
}

describe('the notes fork on the chat loop', () => {
  it('leaves tokensAtLastUpdate and lastSummarizedMessageId where they were when the API answers 500 to the notes fork', async () => {
    const { f, sessionId } = await notesLoop(() => apiErrors.serverError());
    await f.turn(sessionId, 'When is the launch? '.repeat(20));
    await f.services.vault().chat.find(sessionId)!.idle();
    expect(f.fake.requests.filter((r) => lastUserText(r.body).includes('current_notes_content')).length).toBe(1);
    const state = await f.services.vault().chat.engines.notes.store.read(sessionId);
    expect(state.tokensAtLastUpdate).toBe(0);
    expect(state.lastSummarizedMessageId).toBeNull();
    expect(state.updateStartedAt).toBeNull();
  });

  it('moves both cursors when the same update succeeds', async () => {
    const { f, sessionId, notesPath } = await notesLoop((request) =>
      lastUserText(request).includes('tool_result')
        ? text('Done.')
        : toolCalls([{ name: 'Edit', input: { file_path: notesPath, old_string: '# Worklog\n', new_string: '# Worklog\n- the launch\n' } }]),
    );
    await f.turn(sessionId, 'When is the launch? '.repeat(20));
    await f.services.vault().chat.find(sessionId)!.idle();
    const state = await f.services.vault().chat.engines.notes.store.read(sessionId);
    expect(state.tokensAtLastUpdate).toBeGreaterThan(0);
    expect(state.lastSummarizedMessageId).not.toBeNull();
  });

  it('leaves the extractor’s cursor where it was when the API answers 500 to the extractor, and moves it on success', async () => {
    let fail = true;
    f = await chatFixture({
      fake: {
        respond: (request) => {
          if (!lastUserText(request).includes('You are the memory extractor')) return text('Sure.');
          return fail ? apiErrors.serverError() : text('Nothing worth saving.');
        },
      },
    });
    await f.switches({ extraction: true });
    const sessionId = await f.newSession();
    const cursors = new FileCursorStore(f.services.vault().root);
    await f.turn(sessionId, 'I indent with tabs.');
    await f.services.vault().chat.find(sessionId)!.idle();
    expect(f.fake.requests.some((r) => lastUserText(r.body).includes('You are the memory extractor'))).toBe(true);
    expect(await cursors.read(sessionId)).toBeNull();

    fail = false;
    await f.turn(sessionId, 'And I use four-wide tabs.');
    await f.services.vault().chat.find(sessionId)!.idle();
    expect((await cursors.read(sessionId))?.lastMessageUuid).toEqual(expect.any(String));
  });

  it('decides, forks and sets both cursors from the conversation as it was when the hook fired, not as it grew during the update', async () => {
    let notesPath = '';
    f = await chatFixture({
      fake: {
        respond: (request) => {
          const last = lastUserText(request);
          // The notes fork is slow: the main turn runs its tool and answers meanwhile.
          if (notesPath && last.includes(notesPath)) return text('Nothing new.', { firstByteDelayMs: 400 });
          if (last.includes('tool_result')) return text('The file says hello.');
          return toolCalls([{ name: 'Read', input: { file_path: 'hello.txt' } }]);
        },
      },
    });
    // Big enough to update after the first response; the second response adds too little for another.
    await f.call('settings:set', { patch: { memory: { sessionMemory: { ...smallThresholds, minTokensBetweenUpdates: 1_000 } } } });
    await f.restart();
    await fs.writeFile(path.join(f.project, 'hello.txt'), 'hello\n');
    const sessionId = await f.newSession();
    notesPath = await f.services.vault().chat.engines.notes.notesPath(f.project, sessionId);
    await f.turn(sessionId, 'What does hello.txt say? '.repeat(20));
    await f.services.vault().chat.find(sessionId)!.idle();

    const transcript = await f.transcript(sessionId);
    const assistants = transcript.filter((r) => r.type === 'assistant') as { uuid: string; message: { usage: Record<string, number> } }[];
    expect(assistants).toHaveLength(2);
    const notesRequests = f.fake.requests.filter((r) => lastUserText(r.body).includes(notesPath));
    expect(notesRequests).toHaveLength(1);
    // The fork's prefix ends at the response the hook fired for: the tool's result came later.
    expect(JSON.stringify(notesRequests[0]!.body.messages)).not.toContain('hello\\n');
    expect(JSON.stringify(notesRequests[0]!.body.messages)).not.toContain('The file says hello.');
    const state = await f.services.vault().chat.engines.notes.store.read(sessionId);
    // That response has a pending tool call: no message counts as covered yet, however the turn went on.
    expect(state.lastSummarizedMessageId).toBeNull();
    const u = assistants[0]!.message.usage;
    expect(state.tokensAtLastUpdate).toBe(u.input_tokens! + u.cache_read_input_tokens! + u.cache_creation_input_tokens! + u.output_tokens!);
  });
});
