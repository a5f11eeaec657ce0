import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnBackends } from '../helpers/backends.js';
import { client, json, freshRepo, startFixture, type ServerFixture } from '../helpers/server-fixture.js';

/**
 * What keeps one teammate's ordinary action from wedging the whole team: keys no client can hold are
 * refused, a repository stays servable, tombstones are bounded, bodies are UTF-8 JSON and arrive in time.
 */
describeOnBackends('team memory API limits', (backend) => {
  let f: ServerFixture;
  beforeAll(async () => {
    f = await startFixture(backend.url(), { maxEntries: 50, maxFileBytes: 1000, maxRepoBytes: 2500, maxTombstones: 3, requestTimeoutMs: 400 });
  });
  afterAll(async () => {
    await f.close();
    f.logs.assertNoErrors();
  });

  async function member() {
    const repo = freshRepo();
    const c = client((await f.member([repo])).token);
    let etag: string | null = null;
    const put = async (entries: Record<string, string | null>) => {
      const res = await c.put(f.api(repo), { entries }, etag ? { 'if-match': etag } : {});
      if (res.status === 200) etag = res.headers.get('etag');
      return res;
    };
    const snapshot = async () => (await json(await c.get(f.api(repo)))).content as { entries: Record<string, string>; tombstones: Record<string, unknown> };
    return { repo, c, put, snapshot };
  }

  async function refusal(res: Response) {
    const body = await json(res);
    return { status: res.status, code: body.error.details.error_code as string, reason: String(body.error.details.reason ?? body.error.message) };
  }

  it('refuses a key that collides with another as macOS or Windows would, or as folder and file, writing nothing', async () => {
    const m = await member();
    expect((await m.put({ 'x.md': 'x', 'Notes/a.md': 'a', 'caf\u00e9.md': 'nfc' })).status).toBe(200);
    const cases: [string, RegExp][] = [
      ['x.md/y.md', /folder "x.md" is the existing file/],
      ['X.MD', /only in case or Unicode form/],
      ['cafe\u0301.md', /only in case or Unicode form/],
      ['Notes', /folder "Notes" of other keys/],
      ['notes/b.md', /folder "notes" differs from the existing folder "Notes"/],
    ];
    for (const [key, reason] of cases) {
      const answer = await refusal(await m.put({ [key]: 'new', 'fine.md': 'fine' }));
      expect(answer, key).toMatchObject({ status: 400, code: 'invalid_key' });
      expect(answer.reason, key).toMatch(reason);
    }
    // Within one PUT too, and a rename by case (delete and create together) is allowed.
    expect(await refusal(await m.put({ 'y.md': 'y', 'Y.md': 'Y' }))).toMatchObject({ status: 400, code: 'invalid_key' });
    expect((await m.put({ 'x.md': null, 'X.md': 'renamed' })).status).toBe(200);
    expect(Object.keys((await m.snapshot()).entries).sort()).toEqual(['Notes/a.md', 'X.md', 'caf\u00e9.md']);
  });

  it('refuses a segment over 255 bytes and a key over the path budget with the reason', async () => {
    const m = await member();
    const long = await refusal(await m.put({ [`${'é'.repeat(130)}.md`]: 'x' }));
    expect(long).toMatchObject({ status: 400, code: 'invalid_key' });
    expect(long.reason).toMatch(/longer than 255 bytes/);
    const deep = await refusal(await m.put({ [`${Array.from({ length: 6 }, () => 'd'.repeat(90)).join('/')}/x.md`]: 'x' }));
    expect(deep.reason).toMatch(/longer than 512 bytes/);
    expect((await m.put({ [`${'a'.repeat(240)}.md`]: 'legal at 243 bytes' })).status).toBe(200);
  });

  it('caps the bytes a repository holds with a structured 413, still accepts deletions, and keeps serving it', async () => {
    const m = await member();
    expect((await m.put({ 'a.md': 'a'.repeat(1000), 'b.md': 'b'.repeat(1000) })).status).toBe(200);
    const over = await m.put({ 'c.md': 'c'.repeat(600) });
    expect(over.status).toBe(413);
    expect((await json(over)).error.details).toMatchObject({ error_code: 'team_memory_repo_too_large', max_repo_bytes: 2500, received_bytes: 2600 });
    expect((await m.put({ 'a.md': null, 'c.md': 'c'.repeat(600) })).status).toBe(200);
    expect(Object.keys((await m.snapshot()).entries).sort()).toEqual(['b.md', 'c.md']);
  });

  it('answers a repository that grew past the byte cap before it existed with a structured 413, never a 500, and serves it again once deletions bring it under', async () => {
    const m = await member();
    // The same database under a server with no practical cap: the repository grows to 4,000 bytes.
    const before = await startFixture(backend.url(), { maxRepoBytes: 1_000_000, maxFileBytes: 1000, rateLimitPerMinute: 0 });
    try {
      const grown = await client((await before.member([m.repo])).token).put(before.api(m.repo), {
        entries: { 'a.md': 'a'.repeat(1000), 'b.md': 'b'.repeat(1000), 'c.md': 'c'.repeat(1000), 'd.md': 'd'.repeat(1000) },
      });
      expect(grown.status).toBe(200);
    } finally {
      await before.close();
    }
    const full = await m.c.get(f.api(m.repo));
    expect(full.status).toBe(413);
    const refused = await json(full);
    expect(refused.error.details).toMatchObject({ error_code: 'team_memory_repo_too_large', max_repo_bytes: 2500, repo_bytes: 4000 });
    expect(refused.error.message).toMatch(/--max-repo-bytes/);
    // A client already in step still gets its 304; the hashes view still answers, and its ETag lets deletions through.
    const hashes = await m.c.get(f.api(m.repo, '&view=hashes'));
    expect(hashes.status).toBe(200);
    const etag = hashes.headers.get('etag')!;
    expect((await m.c.get(f.api(m.repo), { 'if-none-match': etag })).status).toBe(304);
    expect(Object.keys((await json(hashes)).content.entryChecksums).sort()).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
    expect((await m.c.put(f.api(m.repo), { entries: { 'a.md': null, 'b.md': null } }, { 'if-match': etag })).status).toBe(200);
    expect(Object.keys((await m.snapshot()).entries).sort()).toEqual(['c.md', 'd.md']);
  });

  it('keeps only the newest tombstones, so deletions cannot grow every answer without bound', async () => {
    const m = await member();
    const keys = ['t1.md', 't2.md', 't3.md', 't4.md', 't5.md'];
    expect((await m.put(Object.fromEntries(keys.map((k) => [k, k])))).status).toBe(200);
    for (const key of keys) {
      f.clock.advance(1000);
      expect((await m.put({ [key]: null })).status).toBe(200);
    }
    expect(Object.keys((await m.snapshot()).tombstones).sort()).toEqual(['t3.md', 't4.md', 't5.md']);
    expect((await m.put({ 'u1.md': 'u', 'u2.md': 'u', 'u3.md': 'u', 'u4.md': 'u' })).status).toBe(200);
    expect((await m.put({ 'u1.md': null, 'u2.md': null, 'u3.md': null, 'u4.md': null })).status).toBe(200);
    expect(Object.keys((await m.snapshot()).tombstones)).toHaveLength(3);
  });

  it('refuses text/plain and a charset other than UTF-8 with 415, and accepts utf-8 spelled either way', async () => {
    const m = await member();
    const body = JSON.stringify({ entries: { 'a.md': 'caf\u00e9' } });
    for (const type of ['text/plain', 'application/json; charset=latin1', 'application/json; charset="ISO-8859-1"']) {
      expect(await refusal(await m.c.put(f.api(m.repo), body, { 'content-type': type })), type).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    }
    expect((await m.c.put(f.api(m.repo), body, { 'content-type': 'application/json; charset=UTF-8' })).status).toBe(200);
    expect((await m.snapshot()).entries['a.md']).toBe('caf\u00e9');
  });

  it('answers a body that never finishes with 408 and closes the connection', async () => {
    const m = await member();
    const { token } = await f.member([m.repo]);
    const url = new URL(f.api(m.repo));
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"entries":`,
        );
      });
      let got = '';
      socket.on('data', (chunk) => (got += chunk.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1.1 408/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
