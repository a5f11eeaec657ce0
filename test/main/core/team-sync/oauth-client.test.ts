import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../../../server/index.js';
import { MemoryCredentialStore } from '../../../../main/core/auth/credential-store.js';
import { TeamAuth } from '../../../../main/core/team-sync/oauth-client.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { testLogger } from '../../../support/test-logger.js';
import { submitSignInForm } from './team-browser.js';

/** Sign-in end to end against the real server's OAuth endpoints; the test plays the browser. */
let server: TeamServer;
let admin: TeamAdmin;
let dir = '';
const serverLogs = testLogger();
const REPO = 'acme/oauth';

/** A browser: opens the authorize page, submits the sign-in form, follows the redirect to the loopback listener. */
function browser(username: string, password: string, seen: { callbackStatus?: number; page?: string; url?: string }) {
  return async (url: string) => {
    seen.url = url;
    const location = await submitSignInForm(url, username, password);
    // A forged redirect with another state is refused and does not end the real sign-in.
    const forged = new URL(location);
    forged.searchParams.set('state', 'forged');
    expect((await fetch(forged)).status).toBe(400);
    const callback = await fetch(location);
    seen.callbackStatus = callback.status;
    seen.page = await callback.text();
  };
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-oauth-'));
  const db = `sqlite:${path.join(dir, 'team.db')}`;
  admin = await TeamAdmin.open(db);
  await admin.addUser('dana', 'correct horse battery');
  await admin.grant('dana', REPO);
  server = await startTeamServer({ db, port: 0, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 } });
});

afterAll(async () => {
  await server.close();
  await admin.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('team sign-in (OAuth code + PKCE, loopback redirect)', () => {
  it('signs in through the browser, refreshes before expiry with a rotated refresh token, and revokes on sign-out', async () => {
    let now = Date.now();
    const credentials = new MemoryCredentialStore();
    const seen: { callbackStatus?: number; page?: string; url?: string } = {};
    const log = testLogger();
    const auth = new TeamAuth({
      serverUrl: server.url,
      credentials,
      clock: { now: () => now },
      logger: log.logger,
      openBrowser: browser('dana', 'correct horse battery', seen),
    });

    expect(await auth.isSignedIn()).toBe(false);
    await auth.signIn({ timeoutMs: 15_000 });
    const authorize = new URL(seen.url!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(seen.callbackStatus).toBe(200);
    expect(seen.page).toMatch(/close this tab/);

    const first = await auth.getAccessToken();
    expect(first).toBeTruthy();
    const api = (token: string | null) => new TeamApi({ serverUrl: server.url, repo: REPO, getToken: async () => token });
    expect((await api(first).get(null)).kind).toBe('not-found');
    const stored1 = JSON.parse((await credentials.get(`team-server:${new URL(server.url).origin}`))!) as { refreshToken: string };

    // 15-minute access tokens: 14 min 30 s later is inside the 60 s lead, so the client refreshes.
    now += 14.5 * 60_000;
    const second = await auth.getAccessToken();
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    const stored2 = JSON.parse((await credentials.get(`team-server:${new URL(server.url).origin}`))!) as { refreshToken: string };
    expect(stored2.refreshToken).not.toBe(stored1.refreshToken);
    expect((await api(second).get(null)).kind).toBe('not-found');

    // Two callers at once share one refresh: a second use of a rotated refresh token would revoke the sign-in.
    now += 14.5 * 60_000;
    const [third, fourth] = await Promise.all([auth.getAccessToken(), auth.getAccessToken()]);
    expect(third).toBe(fourth);
    expect(third).not.toBe(second);
    expect((await api(third).get(null)).kind).toBe('not-found');

    await auth.signOut();
    expect(await auth.isSignedIn()).toBe(false);
    const after = await api(third).get(null);
    expect(after.kind === 'http' ? after.status : after.kind).toBe(401);
    expect(log.entries.some((e) => JSON.stringify(e).includes(third!))).toBe(false);
    log.assertNoErrors();
  });

  it('reports a declined sign-in as a value, with nothing stored', async () => {
    const credentials = new MemoryCredentialStore();
    const auth = new TeamAuth({
      serverUrl: server.url,
      credentials,
      clock: { now: () => Date.now() },
      logger: testLogger().logger,
      openBrowser: async (url) => {
        const u = new URL(url);
        const redirect = new URL(u.searchParams.get('redirect_uri')!);
        redirect.searchParams.set('state', u.searchParams.get('state')!);
        redirect.searchParams.set('error', 'access_denied');
        await fetch(redirect);
      },
    });
    await expect(auth.signIn({ timeoutMs: 15_000 })).rejects.toMatchObject({ code: 'permission_denied', message: expect.stringMatching(/declined/) });
    expect(await auth.isSignedIn()).toBe(false);
  });

  it('says the server has no OAuth metadata when pointed at something else', async () => {
    const auth = new TeamAuth({
      serverUrl: 'http://127.0.0.1:9',
      credentials: new MemoryCredentialStore(),
      clock: { now: () => Date.now() },
      logger: testLogger().logger,
      openBrowser: () => undefined,
    });
    await expect(auth.signIn()).rejects.toMatchObject({ code: 'io_error' });
  });
});
