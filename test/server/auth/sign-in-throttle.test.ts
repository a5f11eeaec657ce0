import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTeamServer, type TeamServer } from '../../../server/index.js';
import { addressBucket } from '../../../server/auth/sign-in-throttle.js';
import { describeOnBackends } from '../helpers/backends.js';
import { cheapPasswordCost, startFixture, type ServerFixture } from '../helpers/server-fixture.js';
import { formSignIn as attempt } from '../helpers/oauth-client.js';

const password = 'correct horse battery';
const window = 15 * 60_000;

let addressCounter = 0;
/** A client address no other attempt in this file uses. */
const freshAddress = () => `198.51.100.${++addressCounter}`;

describeOnBackends('sign-in throttle', (backend) => {
  let f: ServerFixture;
  /** A second instance on the same database and clock, as behind a load balancer; trusts no proxy. */
  let second: TeamServer;

  beforeAll(async () => {
    f = await startFixture(backend.url(), {}, { trustProxy: '127.0.0.1' });
    second = await startTeamServer({ db: backend.url(), port: 0, logger: f.logs.logger, clock: f.clock, trustProxy: '127.0.0.1', passwordCost: cheapPasswordCost });
  });
  // Every test starts with fresh windows.
  afterEach(() => f.clock.advance(window + 1000));
  afterAll(async () => {
    await second.close();
    await f.close();
    f.logs.assertNoErrors();
  });

  it('refuses a username after five wrong passwords from any addresses, the right one too, with 429, Retry-After and a message; unknown names alike', async () => {
    const { username } = await f.member([], password);
    const servers = [f.server.url, second.url];
    for (const name of [username, 'nobody-here']) {
      for (let i = 0; i < 5; i++) expect((await attempt(servers[i % 2]!, name, 'wrong password', freshAddress())).status).toBe(401);
    }
    const refused = await attempt(f.server.url, username, password, freshAddress());
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(15 * 60);
    expect(refused.error).toMatch(/^Too many failed sign-in attempts\. Wait 15 minutes, then try again\.$/);
    // Whether the account exists shows nowhere in the answer.
    const unknown = await attempt(second.url, 'nobody-here', password, freshAddress());
    expect([unknown.status, unknown.error]).toEqual([refused.status, refused.error]);
    expect(Number(unknown.retryAfter)).toBeGreaterThan(0);

    f.clock.advance(10 * 60_000);
    const later = await attempt(second.url, username, password, freshAddress());
    expect(later.status).toBe(429);
    expect(Number(later.retryAfter)).toBeLessThanOrEqual(5 * 60);
    expect(later.error).toContain('Wait 5 minutes');
    f.clock.advance(5 * 60_000 + 1000);
    expect((await attempt(f.server.url, username, password, freshAddress())).status).toBe(302);
  });

  it('counts concurrent guesses across two instances exactly: of ten at once, five are checked', async () => {
    const { username } = await f.member([], password);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => attempt(i % 2 ? f.server.url : second.url, username, 'wrong password', freshAddress()).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it("starts the username's count over after a successful sign-in", async () => {
    const { username } = await f.member([], password);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await attempt(f.server.url, username, 'wrong password', freshAddress())).status).toBe(401);
      expect((await attempt(second.url, username, password, freshAddress())).status).toBe(302);
    }
  });

  it('refuses an address after twenty failures across usernames, not counting its successful sign-ins, and no other address', async () => {
    const { username } = await f.member([], password);
    const office = freshAddress();
    for (let i = 0; i < 19; i++) expect((await attempt(i % 2 ? second.url : f.server.url, `guess${i}`, 'wrong password', office)).status).toBe(401);
    // Colleagues behind the same address keep signing in.
    for (let i = 0; i < 3; i++) expect((await attempt(f.server.url, username, password, office)).status).toBe(302);
    expect((await attempt(f.server.url, 'guess19', 'wrong password', office)).status).toBe(401);
    const refused = await attempt(second.url, username, password, office);
    expect(refused.status).toBe(429);
    expect(refused.error).toContain('Too many failed sign-in attempts');
    expect((await attempt(f.server.url, username, password, freshAddress())).status).toBe(302);
  });

  it('counts the connecting address, not X-Forwarded-For, unless the proxy is trusted', async () => {
    const direct = await startTeamServer({ db: backend.url(), port: 0, logger: f.logs.logger, clock: f.clock, passwordCost: cheapPasswordCost });
    try {
      for (let i = 0; i < 20; i++) expect((await attempt(direct.url, `spoof${i}`, 'wrong password', freshAddress())).status).toBe(401);
      expect((await attempt(direct.url, 'spoof-last', 'wrong password', freshAddress())).status).toBe(429);
    } finally {
      await direct.close();
    }
  });
});

it('counts an IPv6 client by its /64 and an IPv4-mapped one as IPv4', () => {
  expect(addressBucket('2001:db8:1:2:aaaa::1')).toBe(addressBucket('2001:0db8:0001:0002:ffff:1:2:3'));
  expect(addressBucket('2001:db8:1:2::1')).toBe('addr:2001:db8:1:2::/64');
  expect(addressBucket('2001:db8:1:3::1')).not.toBe(addressBucket('2001:db8:1:2::1'));
  expect(addressBucket('::1')).toBe('addr:0:0:0:0::/64');
  expect(addressBucket('::ffff:192.0.2.7')).toBe('addr:192.0.2.7');
  expect(addressBucket('192.0.2.7')).toBe('addr:192.0.2.7');
});
