import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../../../common/domain/settings.js';
import { text } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { chatFixture, type ChatFixture } from '../chat/chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** What the renderers receive, counted from a point on: each change is announced once, whoever made it. */
function since(fixture: ChatFixture) {
  const start = fixture.events.length;
  return (channel: string) => fixture.events.slice(start).filter((e) => e.channel === channel);
}

describe('engine events reach the renderers once, from the engine that changed', () => {
  it('a settings change is announced once, from the settings screen or from an include approval', async () => {
    f = await chatFixture();
    let seen = since(f);
    await f.call('settings:set', { patch: { theme: 'dark' } });
    expect(seen('settings:did-change').map((e) => (e.payload as Settings).theme)).toEqual(['dark']);

    seen = since(f);
    const outside = path.join(await tempDir(), 'shared-rules.md');
    await f.call('chat:approve-include', { project: f.project, path: outside });
    const announced = seen('settings:did-change').map((e) => (e.payload as Settings).projects[f!.project]?.approvedIncludes);
    expect(announced).toEqual([[outside]]);
  });

  it('opening and forgetting a project announce the new list once each', async () => {
    f = await chatFixture();
    const seen = since(f);
    await f.call('project:open', { path: f.project });
    const list = await f.call('project:forget', { path: (await f.call('project:list', {}))[0]!.path });
    const lists = seen('project:did-change-list').map((e) => e.payload);
    expect(lists).toHaveLength(2);
    expect(lists[0]).toEqual([expect.objectContaining({ name: 'project' })]);
    expect(lists[1]).toEqual(list);
  });

  it("a vault switch announces the new root, its settings and its projects, and the old vault's engines go quiet", async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { theme: 'dark' } });
    const before = f.services.vault();
    const other = await tempDir();
    let seen = since(f);
    await f.call('vault:set-root', { root: other });
    const order = f.events.slice(-3).map((e) => e.channel);
    expect(order).toEqual(['vault:did-change-root', 'settings:did-change', 'project:did-change-list']);
    expect(seen('settings:did-change').map((e) => (e.payload as Settings).theme)).toEqual(['system']);

    seen = since(f);
    await before.settings.update({ theme: 'light' });
    expect(seen('settings:did-change')).toEqual([]);
    await f.call('settings:set', { patch: { theme: 'dark' } });
    expect(seen('settings:did-change').map((e) => (e.payload as Settings).theme)).toEqual(['dark']);
  });
});

describe('the conversation list', () => {
  it('is announced once after a rename, a delete and its undo, with the list each call returned', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Hello.'));
    const duringTurn = since(f);
    await f.turn(sessionId, 'Hi');
    // A new conversation's turn announces the list twice (its first message, its end), in the background.
    await expect.poll(() => duringTurn('chat:did-change-sessions').length).toBe(2);
    const seen = since(f);
    const renamed = await f.call('chat:rename-session', { project: f.project, sessionId, title: 'Greetings' });
    const { undoToken } = await f.call('chat:delete-session', { project: f.project, sessionId });
    const restored = await f.call('chat:undo-delete', { project: f.project, undoToken });
    const lists = seen('chat:did-change-sessions').map((e) => (e.payload as { sessions: { title: string }[] }).sessions.map((s) => s.title));
    expect(lists).toEqual([renamed.map((s) => s.title), [], restored.map((s) => s.title)]);
    expect(lists[0]).toEqual(['Greetings']);
  });
});

describe('session notes', () => {
  it('are announced once when the user saves them, from the notes engine', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    const loaded = await f.call('notes:read', { project: f.project, sessionId });
    const seen = since(f);
    const saved = await f.call('notes:write', { project: f.project, sessionId, text: '# Current State\nPlanning.\n', baseHash: loaded.hash });
    expect(seen('notes:did-change').map((e) => e.payload)).toEqual([saved]);
  });
});
