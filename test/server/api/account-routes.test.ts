import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnBackends } from '../helpers/backends.js';
import { client, json, startFixture, type ServerFixture } from '../helpers/server-fixture.js';

describeOnBackends('GET /api/me', (backend) => {
  let f: ServerFixture;
  beforeAll(async () => {
    f = await startFixture(backend.url());
  });
  afterAll(async () => {
    await f.close();
    f.logs.assertNoErrors();
  });

  it('answers who the token signs in as, and 401 without a valid token', async () => {
    const { username, token } = await f.member([]);
    const res = await client(token).get(`${f.server.url}/api/me`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ user: username });

    const missing = await fetch(`${f.server.url}/api/me`);
    expect(missing.status).toBe(401);
    expect((await json(missing)).error.details.error_code).toBe('unauthorized');
    const revoked = await f.admin.createToken(username, null);
    await f.admin.revokeToken(revoked.id);
    expect((await client(revoked.token).get(`${f.server.url}/api/me`)).status).toBe(401);
  });
});
