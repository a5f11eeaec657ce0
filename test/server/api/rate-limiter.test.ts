import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTeamServer, type TeamServer } from '../../../server/index.js';
import { describeOnBackends } from '../helpers/backends.js';
import { client, freshRepo, json, startFixture, type ServerFixture } from '../helpers/server-fixture.js';

describeOnBackends('rate limiting per token', (backend) => {
  let f: ServerFixture;
  let second: TeamServer;
  const api = (server: TeamServer, repo: string) => `${server.url}/api/team_memory?repo=${encodeURIComponent(repo)}`;

  beforeAll(async () => {
    f = await startFixture(backend.url(), { rateLimitPerMinute: 3 });
    // A second instance on the same database, as behind a load balancer (same clock, so tests can move time).
    second = await startTeamServer({ db: backend.url(), port: 0, logger: f.logs.logger, clock: f.clock, limits: { rateLimitPerMinute: 3 } });
  });
  afterAll(async () => {
    await second.close();
    await f.close();
    f.logs.assertNoErrors();
  });

  it('answers 429 with Retry-After once a token passes its per-minute limit, counting each token alone', async () => {
    const repo = freshRepo();
    const a = await f.member([repo]);
    const b = await f.member([repo]);
    for (let i = 0; i < 3; i++) expect((await client(a.token).get(f.api(repo))).status).toBe(404);
    const limited = await client(a.token).get(f.api(repo));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await json(limited)).error.details.error_code).toBe('rate_limited');
    expect((await client(a.token).put(f.api(repo), { entries: { 'a.md': 'x' } })).status).toBe(429);
    expect((await client(b.token).get(f.api(repo))).status).toBe(404);
    f.clock.advance(61_000);
    try {
      expect((await client(a.token).get(f.api(repo))).status).toBe(404);
    } finally {
      f.clock.advance(-61_000);
    }
  });

  it('holds the limit for a token across two server instances on one database', async () => {
    const repo = freshRepo();
    const { token } = await f.member([repo]);
    expect((await client(token).get(f.api(repo))).status).toBe(404);
    expect((await client(token).get(api(second, repo))).status).toBe(404);
    expect((await client(token).get(f.api(repo))).status).toBe(404);
    expect((await client(token).get(api(second, repo))).status).toBe(429);
    expect((await client(token).get(f.api(repo))).status).toBe(429);
  });

  it('counts concurrent requests exactly: of 10 at once, 3 pass', async () => {
    const repo = freshRepo();
    const { token } = await f.member([repo]);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client(token).get(i % 2 ? f.api(repo) : api(second, repo)).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 404)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('does not count requests with an invalid token against anyone', async () => {
    const repo = freshRepo();
    const { token } = await f.member([repo]);
    for (let i = 0; i < 5; i++) expect((await client('spat_unknown').get(f.api(repo))).status).toBe(401);
    expect((await client(token).get(f.api(repo))).status).toBe(404);
  });
});
