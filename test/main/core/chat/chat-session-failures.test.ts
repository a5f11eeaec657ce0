import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrors, text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, lastRequestText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

describe('a conversation that fails, stops or is refused, through the IPC handlers and the strict fake API', () => {
  it('turns a 400 prompt too long into a context_too_long banner whose Retry compacts first, then answers', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('The parser keeps a stack of open blocks.'));
    await f.turn(sessionId, 'How does the parser work?');
    f.fake.enqueue(apiErrors.promptTooLong());
    const failed = await f.turn(sessionId, 'And nested blocks?');
    expect(failed.error).toMatchObject({ kind: 'context_too_long', message: expect.stringContaining('prompt is too long') });
    const before = f.fake.requests.length;

    // No notes cover the conversation yet: the summarizer writes the summary, then the turn goes on.
    f.fake.enqueue(
      text('<analysis>scratch</analysis><summary>1. Primary request: explain the parser, now nested blocks.</summary>'),
      text('Nested blocks push onto the stack.'),
    );
    const settled = f.next('chat:did-update', (u) => u.sessionId === sessionId && (u.phase === 'idle' || u.phase === 'error'));
    await f.call('chat:retry', { project: f.project, sessionId });
    expect((await settled).error).toBeNull();
    expect(f.fake.requests).toHaveLength(before + 2);
    const answered = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(answered).toContain('explain the parser, now nested blocks');
    // The compacted conversation is what went out: not the old first answer verbatim.
    expect(answered).not.toContain('The parser keeps a stack of open blocks.');
    expectAllAccepted(f.fake);
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items.some((i) => i.kind === 'compaction')).toBe(true);
    expect(view.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Nested blocks push onto the stack.' });
  });

  it('retries unchanged after any other error: no compaction', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('First answer.'));
    await f.turn(sessionId, 'First');
    f.fake.enqueue(apiErrors.overloaded());
    await f.turn(sessionId, 'Second');
    f.fake.enqueue(text('Second answer.'));
    const settled = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:retry', { project: f.project, sessionId });
    await settled;
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages)).toContain('First answer.');
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items.some((i) => i.kind === 'compaction')).toBe(false);
  });

  it('says the API is unreachable when the connection is refused, and recovers once it is back', async () => {
    f = await chatFixture();
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    await f.call('settings:set', { patch: { baseUrl: `http://127.0.0.1:${closed}` } });
    const sessionId = await f.newSession();
    const failed = await f.turn(sessionId, 'Hello');
    expect(failed.error?.kind).toBe('offline');
    await f.call('settings:set', { patch: { baseUrl: f.fake.url } });
    f.fake.enqueue(text('Back online.'));
    const settled = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:retry', { project: f.project, sessionId });
    expect((await settled).error).toBeNull();
    expectAllAccepted(f.fake);
  });

  it('asks for an API key when none is set, without calling the API; Retry sends the prompt once a key is added', async () => {
    f = await chatFixture({ apiKey: null });
    const sessionId = await f.newSession();
    const failed = await f.turn(sessionId, 'Hello');
    expect(failed.error?.kind).toBe('no_api_key');
    expect(f.fake.requests).toHaveLength(0);
    await f.call('credentials:set-api-key', { key: 'sk-ant-added-later' });
    f.fake.enqueue(text('Hi there.'));
    const settled = f.next('chat:did-update', (u) => u.sessionId === sessionId && (u.phase === 'idle' || u.phase === 'error'));
    await f.call('chat:retry', { project: f.project, sessionId });
    expect((await settled).error).toBeNull();
    expect(lastRequestText(f.fake)).toContain('Hello');
    expectAllAccepted(f.fake);
  });

  it('stops mid-stream, keeps what was shown, and the next turn is accepted', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('word '.repeat(400), { chunkChars: 5, chunkDelayMs: 10 }));
    const streaming = f.next('chat:did-stream', (d) => d.sessionId === sessionId);
    const settled = f.turn(sessionId, 'Tell me a long story');
    await streaming;
    const stopped = await f.call('chat:stop', { sessionId });
    expect(stopped.stopped).toBe(true);
    expect((await settled).phase).toBe('idle');
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    const answer = view.items.find((i) => i.kind === 'assistant');
    expect(answer && answer.kind === 'assistant' && answer.text.length).toBeGreaterThan(0);
    expect(answer && answer.kind === 'assistant' && answer.text.length).toBeLessThan(2000);
    f.fake.enqueue(text('Short version.'));
    await f.turn(sessionId, 'Shorter please');
    expectAllAccepted(f.fake);
  });

  it('stops while a permission prompt waits: the write is denied and the transcript stays valid', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: path.join(f.project, 'x.md'), content: 'x' } }]));
    const asked = f.next('chat:did-request-permission');
    const settled = f.turn(sessionId, 'Write x');
    await asked;
    await f.call('chat:stop', { sessionId });
    await settled;
    await expect(fs.stat(path.join(f.project, 'x.md'))).rejects.toThrow();
    f.fake.enqueue(text('OK.'));
    await f.turn(sessionId, 'Never mind');
    expectAllAccepted(f.fake);
  });

  it('deleting a conversation mid-answer stops it; Undo brings it back whole', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('First answer.'));
    await f.turn(sessionId, 'First');
    f.fake.enqueue(text('word '.repeat(400), { chunkChars: 5, chunkDelayMs: 10 }));
    const streaming = f.next('chat:did-stream', (d) => d.sessionId === sessionId);
    const settled = f.turn(sessionId, 'Second');
    await streaming;
    const { undoToken } = await f.call('chat:delete-session', { project: f.project, sessionId });
    expect((await settled).phase).toBe('idle');
    expect(await f.call('chat:list-sessions', { project: f.project })).toEqual([]);
    await f.call('chat:undo-delete', { project: f.project, undoToken });
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text)).toEqual(['First', 'Second']);
    f.fake.enqueue(text('Third answer.'));
    await f.turn(sessionId, 'Third');
    expectAllAccepted(f.fake);
  });

  it('refuses a second prompt while one is running', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('slow '.repeat(50), { firstByteDelayMs: 300 }));
    const settled = f.turn(sessionId, 'First');
    const second = await f.invoke('chat:send', { project: f.project, sessionId, text: 'Second' });
    expect(second.ok).toBe(false);
    await settled;
  });
});
