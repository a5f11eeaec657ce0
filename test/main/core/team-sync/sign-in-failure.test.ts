import { expect, it } from 'vitest';
import { gitProject, startApp } from './team-app.js';

/**
 * A sign-in that cannot start (docs/memory.md#team-sync): the discovery's refusal reaches the user as
 * one sentence through the IPC boundary, and the project stays signed out.
 */
it('answers a sign-in against an unreachable team server with "Sign-in failed" and the reason, signed out', async () => {
  const app = await startApp('unreachable');
  const project = await gitProject();
  // Port 9 (discard) on loopback: nothing listens, so the OAuth metadata cannot be fetched.
  await app.call('settings:set', { patch: { teamServerUrl: 'http://127.0.0.1:9' } });
  const failure = await app.fail('team:sign-in', { project });
  expect(failure.code).toBe('io_error');
  expect(failure.message).toMatch(/^Sign-in failed: the team server cannot be reached: /);
  expect((await app.call('team:status', { project })).signedIn).toBe(false);
});
