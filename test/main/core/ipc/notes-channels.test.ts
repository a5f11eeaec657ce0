import { afterEach, describe, expect, it } from 'vitest';
import { chatFixture, type ChatFixture } from '../chat/chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

describe('notes:write through the dispatcher', () => {
  it('answers a save over a newer version with a conflict the user can act on, and keeps the newer text', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    const loaded = await f.call('notes:read', { project: f.project, sessionId });
    const first = await f.call('notes:write', { project: f.project, sessionId, text: '# Current State\nFirst.\n', baseHash: loaded.hash });
    const stale = await f.invoke('notes:write', { project: f.project, sessionId, text: '# Current State\nStale.\n', baseHash: loaded.hash });
    expect(stale).toEqual({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/updated on the same lines you changed. Nothing was saved yet: choose what to keep/) } });
    expect(await f.call('notes:read', { project: f.project, sessionId })).toMatchObject({ text: '# Current State\nFirst.\n', hash: first.hash });
  });
});
