import { afterAll, beforeAll, expect, it } from 'vitest';
import { TeamAdmin } from '../../../server/index.js';
import { describeOnBackends } from '../helpers/backends.js';
import { spawnServer } from '../helpers/child-server.js';
import { client, json } from '../helpers/server-fixture.js';

const repo = 'acme/shared';
const api = (base: string) => `${base}/api/team_memory?repo=${encodeURIComponent(repo)}`;

describeOnBackends('two server processes on one database', (backend) => {
  let servers: { url: string; stop: () => Promise<void> }[] = [];
  let token = '';

  beforeAll(async () => {
    const admin = await TeamAdmin.open(backend.url());
    await admin.addUser('writer', null);
    await admin.grant('writer', repo);
    token = (await admin.createToken('writer', null)).token;
    await admin.close();
    servers = await Promise.all([spawnServer(backend.url()), spawnServer(backend.url())]);
    const first = await client(token).put(api(servers[0]!.url), { entries: { 'seed.md': 'seed' } });
    expect(first.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  async function currentEtag(base: string): Promise<string> {
    const res = await client(token).get(`${api(base)}&view=hashes`);
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  }

  it('lets exactly one of two PUTs with the same If-Match win, one on each process', async () => {
    for (let round = 0; round < 8; round++) {
      const etag = await currentEtag(servers[0]!.url);
      const results = await Promise.all(
        servers.map((s, i) => client(token).put(api(s.url), { entries: { [`race-${round}.md`]: `from ${i}` } }, { 'if-match': etag })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    }
  });

  it('loses no update with many concurrent writers, and every 412 answers a precondition that was really stale', async () => {
    const before = await json((await client(token).get(api(servers[0]!.url))));
    const wins: { ifMatch: string; key: string }[] = [];
    const refusals: string[] = [];
    const writers = 8;
    const writesEach = 4;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let n = 0; n < writesEach; n++) {
          const key = `w${w}/n${n}.md`;
          for (let attempt = 0; ; attempt++) {
            const base = servers[(w + attempt) % servers.length]!.url;
            const etag = await currentEtag(base);
            const res = await client(token).put(api(base), { entries: { [key]: `writer ${w} note ${n}` } }, { 'if-match': etag });
            if (res.status === 200) {
              wins.push({ ifMatch: etag, key });
              break;
            }
            expect(res.status).toBe(412);
            refusals.push(etag);
            if (attempt > 200) throw new Error('writer starved');
          }
        }
      }),
    );
    const after = await json((await client(token).get(api(servers[1]!.url))));
    expect(wins).toHaveLength(writers * writesEach);
    expect(after.version).toBe(before.version + wins.length);
    for (const { key } of wins) expect(after.content.entries[key]).toBeDefined();
    // Each accepted PUT started from a different state: no two wins shared a precondition.
    expect(new Set(wins.map((w) => w.ifMatch)).size).toBe(wins.length);
    // A 412 is correct only if its ETag was the base of some accepted PUT (someone else moved on from it).
    const bases = new Set([...wins.map((w) => w.ifMatch)]);
    for (const etag of refusals) expect(bases.has(etag)).toBe(true);
  }, 120_000);
});
