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
    // Both processes start on the empty database at once: each migrates it, one after the other.
    servers = await Promise.all([spawnServer(backend.url()), spawnServer(backend.url())]);
    const admin = await TeamAdmin.open(backend.url());
    await admin.addUser('writer', null);
    await admin.grant('writer', repo);
    token = (await admin.createToken('writer', null)).token;
    await admin.close();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  async function currentEtag(base: string): Promise<string> {
    const res = await client(token).get(`${api(base)}&view=hashes`);
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  }

  it('lets exactly one of two first PUTs without If-Match create the memory; the other gets 428', async () => {
    const results = await Promise.all(
      servers.map((s, i) => client(token).put(api(s.url), { entries: { 'seed.md': `seed from ${i}` } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 428]);
    expect((await json(await client(token).get(api(servers[1]!.url)))).version).toBe(1);
  });

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
    const before = await client(token).get(api(servers[0]!.url));
    const start = before.headers.get('etag')!;
    const startVersion = (await json(before)).version;
    /** Accepted PUTs: the ETag they were based on → the ETag they produced. */
    const next = new Map<string, string>();
    const refusals: { sent: string; current: string }[] = [];
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
              // Two wins from one base would be a lost update.
              expect(next.has(etag)).toBe(false);
              next.set(etag, res.headers.get('etag')!);
              break;
            }
            expect(res.status).toBe(412);
            refusals.push({ sent: etag, current: res.headers.get('etag')! });
            if (attempt > 200) throw new Error('writer starved');
          }
        }
      }),
    );
    const after = await client(token).get(api(servers[1]!.url));
    const body = await json(after);
    expect(next.size).toBe(writers * writesEach);
    expect(body.version).toBe(startVersion + next.size);
    for (let w = 0; w < writers; w++) for (let n = 0; n < writesEach; n++) expect(body.content.entries[`w${w}/n${n}.md`]).toBe(`writer ${w} note ${n}`);
    // The accepted PUTs form one unbroken chain from the starting state to the final one.
    const chain = [start];
    while (next.has(chain.at(-1)!)) chain.push(next.get(chain.at(-1)!)!);
    expect(chain).toHaveLength(next.size + 1);
    expect(chain.at(-1)).toBe(after.headers.get('etag'));
    // A 412 is correct only if its If-Match had been superseded: the ETag it reports is a later state.
    const position = new Map(chain.map((etag, i) => [etag, i]));
    for (const { sent, current } of refusals) {
      expect(position.has(sent)).toBe(true);
      expect(position.get(current)!).toBeGreaterThan(position.get(sent)!);
    }
  }, 120_000);
});
