import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTeamServer } from '../../../server/index.js';
import { hashSecret } from '../../../server/server-crypto.js';
import { AuthStore } from '../../../server/storage/auth-store.js';
import { openDatabase } from '../../../server/storage/open-db.js';
import type { SqlDb } from '../../../server/storage/sql-db.js';
import { testLogger } from '../../support/test-logger.js';
import { describeOnBackends } from '../helpers/backends.js';
import { client, startFixture, TestClock, type ServerFixture } from '../helpers/server-fixture.js';
import { pkcePair, postForm, signIn } from '../helpers/oauth-client.js';

const day = 24 * 60 * 60_000;
const cleaned = 'ended sign-in records removed';

/** Resolves once a cleanup run that started after this call has finished (or failed: an error entry). */
async function nextCleanup(logs: { entries: { message: string }[] }): Promise<void> {
  const runs = () => logs.entries.filter((e) => e.message.startsWith('ended sign-in records')).length;
  const before = runs();
  while (runs() < before + 2) await new Promise((r) => setTimeout(r, 5));
}

describeOnBackends('removing ended tokens and codes', (backend) => {
  let db: SqlDb;
  let store: AuthStore;

  beforeAll(async () => {
    db = await openDatabase(backend.url());
    store = new AuthStore(db);
  });
  afterAll(async () => {
    await db.close();
  });

  it('removes, when the server starts, rows that ended more than a day ago and keeps the rest', async () => {
    const now = Date.now();
    await store.createUser('usr_start', 'start-user', null, now);
    const user = { userId: 'usr_start', kind: 'pat' as const, familyId: null };
    await store.saveAccessToken('old-expired', { ...user, id: 'pat_old_expired', expiresAt: now - 2 * day }, now - 3 * day);
    await store.saveAccessToken('old-revoked', { ...user, id: 'pat_old_revoked', expiresAt: null }, now - 3 * day);
    await store.revokeAccessTokenByHash('old-revoked', now - 2 * day);
    await store.saveAccessToken('recently-revoked', { ...user, id: 'pat_recent', expiresAt: null }, now - 3 * day);
    await store.revokeAccessTokenByHash('recently-revoked', now - 60 * 60_000);
    await store.saveAccessToken('recently-expired', { ...user, id: 'pat_recent_expired', expiresAt: now - 60 * 60_000 }, now - 3 * day);
    await store.saveRefreshToken('old-family', 'usr_start', 'fam_old', now - 2 * day, now - 32 * day);
    await store.saveRefreshToken('live-family', 'usr_start', 'fam_live', now + day, now - 29 * day);
    const code = { userId: 'usr_start', redirectUri: 'http://127.0.0.1:1/callback', codeChallenge: 'x', codeChallengeMethod: 'S256' };
    await store.saveAuthCode('old-code', { ...code, expiresAt: now - 2 * day }, now - 2 * day);
    await store.saveAuthCode('fresh-code', { ...code, expiresAt: now + 60_000 }, now);

    const logs = testLogger();
    const server = await startTeamServer({ db: backend.url(), port: 0, logger: logs.logger });
    try {
      // The run at start (the next is an hour away).
      while (!logs.entries.some((e) => e.message.startsWith('ended sign-in records'))) await new Promise((r) => setTimeout(r, 5));
    } finally {
      await server.close();
    }
    logs.assertNoErrors();
    expect(await store.findAccessToken('old-expired')).toBeNull();
    expect(await store.findAccessToken('old-revoked')).toBeNull();
    expect(await store.findAccessToken('recently-revoked')).not.toBeNull();
    expect(await store.findAccessToken('recently-expired')).not.toBeNull();
    expect(await store.findRefreshToken('old-family')).toBeNull();
    expect(await store.findRefreshToken('live-family')).not.toBeNull();
    expect(await store.findAuthCode('old-code')).toBeNull();
    expect(await store.findAuthCode('fresh-code')).not.toBeNull();
  });

  // The periodic runs, through real sign-ins on a server whose clock the test moves (its own suite,
  // so its runs cannot clean up before the run at start that the test above waits for).
  describe('periodically', () => {
    let f: ServerFixture;
    const password = 'correct horse battery';
    let username = '';

    beforeAll(async () => {
      f = await startFixture(backend.url(), {}, { cleanupIntervalMs: 20 });
      ({ username } = await f.member([], password));
    });
    afterAll(async () => {
      await f.close();
      f.logs.assertNoErrors();
    });

    const tokenUrl = () => `${f.server.url}/oauth/token`;
    const refresh = (refreshToken: string) => postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'strata-desktop' });
    async function signedIn() {
      const { verifier, challenge } = pkcePair();
      const { code, redirectUri } = await signIn(f.server.url, username, password, challenge);
      const res = await postForm(tokenUrl(), { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'strata-desktop', code_verifier: verifier });
      expect(res.status).toBe(200);
      return { code, redirectUri, verifier, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
    }

    it('keeps every refresh token of a live sign-in, so reuse of a rotated one and replay of its code still revoke it, and drops a sign-in a day after it ended', async () => {
      const a = await signedIn();
      const a2 = await refresh(a.refresh);
      expect(a2.status).toBe(200);
      const b = await signedIn();
      const c = await signedIn();
      const d = await signedIn();
      const revokedPat = await f.admin.createToken(username, null);
      await f.admin.revokeToken(revokedPat.id);
      const livePat = await f.admin.createToken(username, null);

      f.clock.advance(2 * day);
      await nextCleanup(f.logs);
      expect(await store.findAccessToken(hashSecret(a.access))).toBeNull();
      expect(await store.findAccessToken(hashSecret(revokedPat.token))).toBeNull();
      expect((await client(livePat.token).get(`${f.server.url}/api/me`)).status).toBe(200);
      // A rotated refresh token presented again still ends its sign-in, two days after its use.
      expect((await refresh(a.refresh)).status).toBe(400);
      expect((await refresh(a2.body.refresh_token as string)).status).toBe(400);
      // So does a replayed code.
      const replay = await postForm(tokenUrl(), { grant_type: 'authorization_code', code: b.code, redirect_uri: b.redirectUri, client_id: 'strata-desktop', code_verifier: b.verifier });
      expect(replay.status).toBe(400);
      expect((await refresh(b.refresh)).status).toBe(400);

      f.clock.advance(18 * day);
      const c2 = await refresh(c.refresh);
      expect(c2.status).toBe(200);
      f.clock.advance(12 * day);
      await nextCleanup(f.logs);
      // Revoked (a, b) or expired (d) more than a day ago: gone, with b's code.
      for (const token of [a.refresh, a2.body.refresh_token as string, b.refresh, d.refresh]) expect(await store.findRefreshToken(hashSecret(token))).toBeNull();
      expect(await store.findAuthCode(hashSecret(b.code))).toBeNull();
      // c lives on (refreshed at day 20): its first token, expired at day 30, is kept and still detects reuse.
      expect(await store.findRefreshToken(hashSecret(c.refresh))).not.toBeNull();
      expect(await store.findAuthCode(hashSecret(c.code))).not.toBeNull();
      expect((await refresh(c.refresh)).status).toBe(400);
      expect((await refresh(c2.body.refresh_token as string)).status).toBe(400);
    });

    it('stops running when the server closes', async () => {
      const clock = new TestClock();
      const logs = testLogger();
      const server = await startTeamServer({ db: backend.url(), port: 0, logger: logs.logger, clock, cleanupIntervalMs: 5 });
      await nextCleanup(logs);
      await server.close();
      const runs = logs.entries.filter((e) => e.message === cleaned).length;
      await new Promise((r) => setTimeout(r, 50));
      expect(logs.entries.filter((e) => e.message === cleaned)).toHaveLength(runs);
      logs.assertNoErrors();
    });
  });
});
