import { afterEach, describe, expect, it } from 'vitest';
import { apiErrors, text } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/**
 * The line a failed turn leaves ("No answer — …") says what happened, in its place: a Retry that fails
 * again says so on the same line, and one that answers turns it into "The first try failed (…); Retry
 * answered." — never a stale "No answer" above the answer, live or reopened.
 */
describe('the line of a failed try', () => {
  it('stays one line through a failed Retry and reads as answered after a Retry that answers', async () => {
    f = await chatFixture();
    const fx = f;
    const sessionId = await fx.newSession();
    const retry = async () => {
      const settled = fx.next('chat:did-update', (u) => u.sessionId === sessionId && (u.phase === 'idle' || u.phase === 'error'));
      await fx.call('chat:retry', { project: fx.project, sessionId });
      return settled;
    };
    const lines = async () => (await fx.call('chat:open-session', { project: fx.project, sessionId })).items.filter((i) => i.kind === 'turn-end');

    fx.fake.enqueue(apiErrors.overloaded());
    await fx.turn(sessionId, 'When is the launch?');
    const [failed] = await lines();
    expect(failed).toMatchObject({ reason: 'failed', text: 'No answer — the model was overloaded.' });

    fx.fake.enqueue(apiErrors.serverError());
    expect((await retry()).phase).toBe('error');
    expect(await lines()).toEqual([{ ...failed, text: 'No answer — the model service failed.' }]);

    fx.fake.enqueue(text('On Friday.'));
    const live = fx.next('chat:did-update', (u) => u.sessionId === sessionId && u.upserts.some((i) => i.kind === 'turn-end'));
    expect((await retry()).phase).toBe('idle');
    // Live: the same item changes in place (the window updates it where it is).
    expect((await live).upserts).toContainEqual({ ...failed, reason: 'retried', text: 'The first try failed (the model service failed); Retry answered.' });
    expect(await lines()).toEqual([{ ...failed, reason: 'retried', text: 'The first try failed (the model service failed); Retry answered.' }]);
    const items = (await fx.call('chat:open-session', { project: fx.project, sessionId })).items;
    expect(items.map((i) => i.kind)).toEqual(['user', 'turn-end', 'assistant']);

    // A new question after a failure is not a retry: its answer leaves the failed line as it was.
    fx.fake.enqueue(apiErrors.overloaded());
    await fx.turn(sessionId, 'And the venue?');
    fx.fake.enqueue(text('The old hall.'));
    await fx.turn(sessionId, 'Never mind, what about the venue?');
    expect((await lines()).at(-1)).toMatchObject({ reason: 'failed', text: 'No answer — the model was overloaded.' });
    expectAllAccepted(fx.fake);
  });
});
