import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../../../server/index.js';
import { MemoryCredentialStore } from '../../../../main/core/auth/credential-store.js';
import { TeamAuth } from '../../../../main/core/team-sync/oauth-client.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { cheapPasswordCost } from '../../../server/helpers/server-fixture.js';
import { signInAsBrowser } from './team-browser.js';

// How the sign-in client behaves when the token endpoint says no or cannot answer, and what it sends to
// revoke (RFC 6749 §5.2, RFC 7009 §2.1), against the real server.

let server: TeamServer;
let admin: TeamAdmin;
const serverLogs = testLogger();

beforeAll(async () => {
  const db = `sqlite:${await tempDir()}/team.db`;
  admin = await TeamAdmin.open(db, undefined, cheapPasswordCost);
  await admin.addUser('dana', 'correct horse battery');
  server = await startTeamServer({ db, port: 0, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 }, passwordCost: cheapPasswordCost });
});
afterAll(async () => {
  await server.close();
  await admin.close();
  serverLogs.assertNoErrors();
});

/** A signed-in client whose network can be cut at the token endpoint; every request body it sends is kept. */
async function signedIn() {
  let now = Date.now();
  let tokenEndpointDown = false;
  const sent: { url: string; body: string }[] = [];
  const credentials = new MemoryCredentialStore();
  const log = testLogger();
  const network: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    sent.push({ url, body: init?.body === undefined || init.body === null ? '' : String(init.body) });
    if (tokenEndpointDown && url.endsWith('/oauth/token')) return Promise.reject(new TypeError('fetch failed'));
    return fetch(input, init);
  };
  const auth = new TeamAuth({ serverUrl: server.url, credentials, clock: { now: () => now }, logger: log.logger, openBrowser: async (url) => void (await signInAsBrowser(url, 'dana', 'correct horse battery')), fetch: network });
  await auth.signIn({ timeoutMs: 15_000 });
  const account = `team-server:${new URL(server.url).origin}`;
  const stored = () => credentials.get(account).then((raw) => (raw ? (JSON.parse(raw) as { accessToken: string; refreshToken: string }) : null));
  return {
    auth,
    sent,
    log,
    stored,
    advance: (ms: number) => (now += ms),
    cutTokenEndpoint: (down = true) => (tokenEndpointDown = down),
  };
}

describe('team sign-in when the token endpoint fails', () => {
  it('keeps a token that has not expired when the server cannot be reached to refresh it, and refreshes once it can', async () => {
    const c = await signedIn();
    const first = await c.auth.getAccessToken();
    c.advance(14.5 * 60_000);
    c.cutTokenEndpoint();
    expect(await c.auth.getAccessToken()).toBe(first);
    expect((await c.stored())?.accessToken).toBe(first);
    c.cutTokenEndpoint(false);
    const refreshed = await c.auth.getAccessToken();
    expect(refreshed).toBeTruthy();
    expect(refreshed).not.toBe(first);
    c.log.assertNoErrors();
  });

  it('forgets the sign-in when the server refuses the refresh token as invalid_grant (a reused one ends the family)', async () => {
    const c = await signedIn();
    const { refreshToken } = (await c.stored())!;
    // Someone else uses the refresh token first; the client's next refresh is a reuse.
    const stolen = await fetch(`${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'strata-desktop' }),
    });
    expect(stolen.status).toBe(200);
    c.advance(16 * 60_000);
    expect(await c.auth.getAccessToken()).toBeNull();
    expect(await c.auth.isSignedIn()).toBe(false);
    c.log.assertNoErrors();
  });

  it('revokes the refresh token then the access token, each with its type hint and the public client id', async () => {
    const c = await signedIn();
    const { accessToken, refreshToken } = (await c.stored())!;
    await c.auth.signOut();
    const revocations = c.sent.filter((s) => s.url.endsWith('/oauth/revoke')).map((s) => Object.fromEntries(new URLSearchParams(s.body)));
    expect(revocations).toEqual([
      { token: refreshToken, token_type_hint: 'refresh_token', client_id: 'strata-desktop' },
      { token: accessToken, token_type_hint: 'access_token', client_id: 'strata-desktop' },
    ]);
    expect(c.log.entries.some((e) => JSON.stringify(e).includes(refreshToken))).toBe(false);
  });
});
