import { afterEach, describe, expect, it } from 'vitest';
import { notesSessionTitle as notesTitle } from '../../../../main/core/transcripts/index.js';
import { text } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const TEMPLATE_TITLE = '# Session Title\n_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_\n\n';

describe('conversation titles', () => {
  it('reads the Session Title section of the notes, not its italic description', () => {
    expect(notesTitle(`${TEMPLATE_TITLE}# Current State\n_What is actively being worked on_\n`)).toBeNull();
    expect(notesTitle(`${TEMPLATE_TITLE}Friday launch checklist and release notes\n\n# Current State\n_x_\nDrafting.\n`)).toBe('Friday launch checklist and release notes');
    expect(notesTitle('no sections at all')).toBeNull();
  });

  it('names a conversation by its notes’ title, else its first question; a rename wins over both', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Let us look at it.'));
    await f.turn(sessionId, 'can u help me with the thing for friday');
    const listed = async () => (await f!.call('chat:list-sessions', { project: f!.project })).find((s) => s.sessionId === sessionId)!.title;
    expect(await listed()).toBe('can u help me with the thing for friday');

    const notes = await f.call('notes:read', { project: f.project, sessionId });
    await f.call('notes:write', { project: f.project, sessionId, text: `${TEMPLATE_TITLE}Friday launch checklist\n`, baseHash: notes.hash });
    expect(await listed()).toBe('Friday launch checklist');
    expect((await f.call('chat:open-session', { project: f.project, sessionId })).title).toBe('Friday launch checklist');

    await f.call('chat:rename-session', { project: f.project, sessionId, title: 'Launch' });
    expect(await listed()).toBe('Launch');
  });
});
