import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getResponseSchema, hashesResponseSchema } from '../../../common/team-memory/index.js';
import { describeOnBackends } from '../helpers/backends.js';
import { client, json, freshRepo, startFixture, type ServerFixture } from '../helpers/server-fixture.js';

const sha = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
const day = 24 * 60 * 60 * 1000;

describeOnBackends('team memory API', (backend) => {
  let f: ServerFixture;
  beforeAll(async () => {
    f = await startFixture(backend.url(), { maxEntries: 5, maxFileBytes: 1000, maxBodyBytes: 20_000 });
  });
  afterAll(async () => {
    await f.close();
    f.logs.assertNoErrors();
  });

  async function seeded(entries: Record<string, string>) {
    const repo = freshRepo();
    const { token, username } = await f.member([repo]);
    const c = client(token);
    const res = await c.put(f.api(repo), { entries });
    expect(res.status).toBe(200);
    return { repo, token, username, c, etag: res.headers.get('etag')! };
  }

  it('answers 401 without a token, with an unknown token, and with an expired or revoked one', async () => {
    const repo = freshRepo();
    expect((await fetch(f.api(repo))).status).toBe(401);
    const unknown = await client('spat_nope').get(f.api(repo));
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('Bearer');
    expect((await json(unknown)).error.details.error_code).toBe('unauthorized');

    const { username } = await f.member([repo]);
    const short = await f.admin.createToken(username, 1);
    expect((await client(short.token).get(f.api(repo))).status).toBe(404);
    f.clock.advance(2 * day);
    expect((await client(short.token).get(f.api(repo))).status).toBe(401);
    f.clock.advance(-2 * day);

    const revoked = await f.admin.createToken(username, null);
    await f.admin.revokeToken(revoked.id);
    const res = await client(revoked.token).get(f.api(repo));
    expect(res.status).toBe(401);
    expect((await json(res)).error.message).toMatch(/revoked/);
  });

  it('answers 403 to a non-member whether or not the repository has memory, and 404 to a member before the first PUT', async () => {
    const { repo } = await seeded({ 'a.md': 'x' });
    const outsider = await f.member([]);
    const onExisting = await client(outsider.token).get(f.api(repo));
    expect(onExisting.status).toBe(403);
    expect((await json(onExisting)).error.details.error_code).toBe('forbidden');
    expect((await client(outsider.token).get(f.api('nobody/nothing'))).status).toBe(403);
    expect((await client(outsider.token).put(f.api(repo), { entries: { 'b.md': 'y' } })).status).toBe(403);

    const empty = freshRepo();
    const member = await f.member([empty]);
    const res = await client(member.token).get(f.api(empty));
    expect(res.status).toBe(404);
    expect((await json(res)).error.details.error_code).toBe('not_found');
  });

  it('stores a first PUT without If-Match and serves it with SPEC checksums and a strong quoted ETag', async () => {
    const entries = { 'MEMORY.md': '# Team\n- [x](x.md)\n', 'notes/deploy.md': 'Déploiement ✓' };
    const { repo, c, etag } = await seeded(entries);
    expect(etag).toMatch(/^"sha256:[0-9a-f]{64}"$/);
    const res = await c.get(f.api(repo));
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(etag);
    const body = getResponseSchema.parse(await json(res));
    expect(body.repo).toBe(repo);
    expect(body.version).toBe(1);
    expect(body.content.entries).toEqual(entries);
    expect(body.content.entryChecksums).toEqual({ 'MEMORY.md': sha(entries['MEMORY.md']), 'notes/deploy.md': sha(entries['notes/deploy.md']) });
    const lines = Object.keys(entries)
      .sort()
      .map((k) => `${k}\0${sha(entries[k as keyof typeof entries])}\n`)
      .join('');
    expect(body.checksum).toBe(sha(lines));
    expect(etag).toBe(`"${body.checksum}"`);
    expect(Date.parse(body.lastModified)).not.toBeNaN();
  });

  it('answers a matching If-None-Match with 304 and no body, weak or strong, and a stale one with 200', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'one' });
    for (const inm of [etag, `W/${etag}`, `"sha256:other", ${etag}`, '*']) {
      const res = await c.get(f.api(repo), { 'if-none-match': inm });
      expect(res.status).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    expect((await c.get(f.api(repo), { 'if-none-match': '"sha256:stale"' })).status).toBe(200);
  });

  it('answers HEAD like GET without a body, and If-None-Match: * on PUT creates only', async () => {
    const { repo, c, etag, token: member } = await seeded({ 'a.md': 'one' });
    const head = await fetch(f.api(repo), { method: 'HEAD', headers: { authorization: `Bearer ${member}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(await head.text()).toBe('');
    expect((await c.put(f.api(repo), { entries: { 'b.md': 'x' } }, { 'if-none-match': '*' })).status).toBe(412);
    const fresh = freshRepo();
    const { token } = await f.member([fresh]);
    expect((await client(token).put(f.api(fresh), { entries: { 'b.md': 'x' } }, { 'if-none-match': '*' })).status).toBe(200);
  });

  it('evaluates If-Match, then If-None-Match, per RFC 9110 §13.2.2 on GET and PUT: a false one is 412 and changes nothing', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'one' });
    const staleGet = await c.get(f.api(repo), { 'if-match': '"sha256:stale"' });
    expect(staleGet.status).toBe(412);
    expect(staleGet.headers.get('etag')).toBe(etag);
    expect((await json(staleGet)).error.details.error_code).toBe('precondition_failed');
    expect((await c.get(f.api(repo), { 'if-match': `W/${etag}` })).status).toBe(412);
    expect((await c.get(f.api(repo), { 'if-match': etag })).status).toBe(200);

    for (const inm of [etag, `W/${etag}`, `"sha256:other", ${etag}`]) {
      const res = await c.put(f.api(repo), { entries: { 'a.md': 'two' } }, { 'if-match': etag, 'if-none-match': inm });
      expect(res.status, inm).toBe(412);
      expect((await json(res)).error.details.error_code).toBe('precondition_failed');
    }
    expect((await c.put(f.api(repo), { entries: { 'a.md': 'two' } }, { 'if-none-match': '"sha256:other"' })).status).toBe(428);
    expect((await json(await c.get(f.api(repo)))).version).toBe(1);
    const ok = await c.put(f.api(repo), { entries: { 'a.md': 'two' } }, { 'if-match': etag, 'if-none-match': '"sha256:other"' });
    expect(ok.status).toBe(200);
    expect((await json(ok)).version).toBe(2);
  });

  it('serves ?view=hashes without entries', async () => {
    const { repo, c } = await seeded({ 'a.md': 'one', 'b.md': 'two' });
    const res = await c.get(f.api(repo, '&view=hashes'));
    const body = hashesResponseSchema.parse(await json(res));
    expect(body.content.entryChecksums).toEqual({ 'a.md': sha('one'), 'b.md': sha('two') });
    expect('entries' in body.content).toBe(false);
  });

  it('requires If-Match once a repository has memory: 428 without, 412 stale or weak, 200 current', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'one' });
    const without = await c.put(f.api(repo), { entries: { 'a.md': 'two' } });
    expect(without.status).toBe(428);
    expect((await json(without)).error.details.error_code).toBe('precondition_required');
    const stale = await c.put(f.api(repo), { entries: { 'a.md': 'two' } }, { 'if-match': '"sha256:0000"' });
    expect(stale.status).toBe(412);
    expect((await json(stale)).error.details.error_code).toBe('precondition_failed');
    expect((await c.put(f.api(repo), { entries: { 'a.md': 'two' } }, { 'if-match': `W/${etag}` })).status).toBe(412);
    const ok = await c.put(f.api(repo), { entries: { 'a.md': 'two' } }, { 'if-match': etag });
    expect(ok.status).toBe(200);
    const body = await json(ok);
    expect(body.version).toBe(2);
    expect(ok.headers.get('etag')).toBe(`"${body.checksum}"`);
    // The old ETag is now stale: nothing is written by a replay.
    expect((await c.put(f.api(repo), { entries: { 'a.md': 'three' } }, { 'if-match': etag })).status).toBe(412);
    const current = await json(await c.get(f.api(repo)));
    expect(current.content.entries['a.md']).toBe('two');
  });

  it('answers If-Match on a repository without memory with 412, If-Match: * with 412 there and 200 once it has memory', async () => {
    const repo = freshRepo();
    const { token } = await f.member([repo]);
    expect((await client(token).put(f.api(repo), { entries: { 'a.md': 'x' } }, { 'if-match': '"sha256:abc"' })).status).toBe(412);
    expect((await client(token).put(f.api(repo), { entries: { 'a.md': 'x' } }, { 'if-match': '*' })).status).toBe(412);
    expect((await client(token).put(f.api(repo), { entries: { 'a.md': 'x' } })).status).toBe(200);
    const star = await client(token).put(f.api(repo), { entries: { 'b.md': 'y' } }, { 'if-match': '*' });
    expect(star.status).toBe(200);
    expect((await json(star)).version).toBe(2);
  });

  it('stores any text byte for byte, NUL and astral characters included, with the checksum of its UTF-8 bytes', async () => {
    const text = 'before\0after\r\n\u{1F600} \u00e9\ufeff\u0001';
    const { repo, c } = await seeded({ 'nul.md': text, 'empty.md': '' });
    const body = await json(await c.get(f.api(repo)));
    expect(body.content.entries).toEqual({ 'nul.md': text, 'empty.md': '' });
    expect(body.content.entryChecksums['nul.md']).toBe(sha(text));
    expect(body.content.entryChecksums['empty.md']).toBe(sha(''));
  });

  it('upserts only the listed keys and turns null into a tombstone kept 30 days', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'one', 'b.md': 'two' });
    const put = await c.put(f.api(repo), { entries: { 'a.md': null, 'c.md': 'three', 'never.md': null } }, { 'if-match': etag });
    expect(put.status).toBe(200);
    const body = await json(await c.get(f.api(repo)));
    expect(body.version).toBe(2);
    expect(body.content.entries).toEqual({ 'b.md': 'two', 'c.md': 'three' });
    expect(Object.keys(body.content.tombstones)).toEqual(['a.md']);
    expect(body.content.tombstones['a.md']?.checksum).toBe(sha('one'));

    f.clock.advance(29 * day);
    expect(Object.keys((await json(await c.get(f.api(repo)))).content.tombstones)).toEqual(['a.md']);
    f.clock.advance(2 * day);
    expect((await json(await c.get(f.api(repo)))).content.tombstones).toEqual({});
    f.clock.advance(-31 * day);

    // Writing a deleted key again brings it back and drops its tombstone.
    const again = await c.put(f.api(repo), { entries: { 'a.md': 'back' } }, { 'if-match': put.headers.get('etag')! });
    expect(again.status).toBe(200);
    const after = await json(await c.get(f.api(repo)));
    expect(after.content.entries['a.md']).toBe('back');
    expect(after.content.tombstones).toEqual({});
  });

  it('refuses more entries than the limit after the PUT with the structured 413, writing nothing', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': '1', 'b.md': '2', 'c.md': '3' });
    const res = await c.put(f.api(repo), { entries: { 'd.md': '4', 'e.md': '5', 'f.md': '6' } }, { 'if-match': etag });
    expect(res.status).toBe(413);
    expect((await json(res)).error.details).toEqual({ error_code: 'team_memory_too_many_entries', max_entries: 5, received_entries: 6 });
    // Deleting one in the same PUT keeps it within the limit.
    const ok = await c.put(f.api(repo), { entries: { 'a.md': null, 'd.md': '4', 'e.md': '5', 'f.md': '6' } }, { 'if-match': etag });
    expect(ok.status).toBe(200);
  });

  it('refuses an entry over the per-file limit and a body over the body limit with 413 codes', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'x' });
    const big = await c.put(f.api(repo), { entries: { 'big.md': 'é'.repeat(501) } }, { 'if-match': etag });
    expect(big.status).toBe(413);
    expect((await json(big)).error.details).toMatchObject({ error_code: 'team_memory_file_too_large', key: 'big.md', max_file_bytes: 1000, received_bytes: 1002 });
    const huge = await c.put(f.api(repo), { entries: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}.md`, 'y'.repeat(900)])) }, { 'if-match': etag });
    expect(huge.status).toBe(413);
    expect((await json(huge)).error.details.error_code).toBe('body_too_large');
    expect((await json(await c.get(f.api(repo)))).version).toBe(1);
  });

  it('answers 401 and 403 before it reads the body: an oversized, non-JSON or malformed body does not change them', async () => {
    const { repo } = await seeded({ 'a.md': 'x' });
    const outsider = await f.member([]);
    const oversized = JSON.stringify({ entries: { 'big.md': 'y'.repeat(30_000) } });
    for (const [token, status] of [[null, 401], ['spat_unknown', 401], [outsider.token, 403]] as const) {
      const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      for (const [contentType, raw] of [['application/json', oversized], ['application/xml', '<entries/>'], ['application/json', '{"entries": {']] as const) {
        const res = await fetch(f.api(repo), { method: 'PUT', headers: { ...auth, 'content-type': contentType }, body: raw });
        expect(res.status, `${token} ${contentType} ${raw.length}`).toBe(status);
        expect((await json(res)).error.details.error_code).toBe(status === 401 ? 'unauthorized' : 'forbidden');
      }
    }
  });

  it('refuses malformed JSON, unknown fields and wrong shapes with 400 and loses nothing', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'x' });
    const cases: [string, string][] = [
      ['{"entries": {', 'invalid_json'],
      ['', 'invalid_json'],
      ['{"entries": {"a.md": "y"}, "force": true}', 'invalid_request'],
      ['{"entries": {"a.md": 3}}', 'invalid_request'],
      ['[]', 'invalid_request'],
    ];
    for (const [raw, code] of cases) {
      const res = await c.put(f.api(repo), raw, { 'if-match': etag });
      expect(res.status, raw).toBe(400);
      const body = await json(res);
      expect(body.error.details.error_code, raw).toBe(code);
      expect(typeof body.error.message).toBe('string');
    }
    const unknown = await json((await c.put(f.api(repo), '{"entries": {}, "force": 1}', { 'if-match': etag })));
    expect(unknown.error.details.unknown_fields).toEqual(['force']);
    const wrongType = await c.put(f.api(repo), '<entries/>', { 'if-match': etag, 'content-type': 'application/xml' });
    expect(wrongType.status).toBe(415);
    expect((await json(wrongType)).error.details.error_code).toBe('unsupported_media_type');
    expect((await json(await c.get(f.api(repo)))).content.entries).toEqual({ 'a.md': 'x' });
  });

  it('refuses traversal keys, plain or disguised, a __proto__ key (which object parsing would drop) and a lone surrogate, with 400 invalid_key and the reason', async () => {
    const { repo, c, etag } = await seeded({ 'a.md': 'x' });
    const bad = ['../x.md', 'a/../../x.md', '%2e%2e/x.md', '%252e%252e/x.md', 'a\\b.md', '/etc/passwd', 'a\0b.md', '．．/x.md', 'a／..／b', '％2e％2e/x', 'a%2Fb.md', '%25252525252e%25252525252e/x', 'x\ud800.md', '', '__proto__'];
    for (const key of bad) {
      const res = await c.put(f.api(repo), { entries: { [key]: 'evil' } }, { 'if-match': etag });
      expect(res.status, JSON.stringify(key)).toBe(400);
      const body = await json(res);
      expect(body.error.details.error_code).toBe('invalid_key');
      expect(body.error.details.reason.length).toBeGreaterThan(0);
    }
    expect((await json(await c.get(f.api(repo)))).version).toBe(1);
  });

  it('refuses a malformed repo parameter with 400 and other methods with 405', async () => {
    const repo = freshRepo();
    const { token } = await f.member([repo]);
    for (const r of ['noslash', 'a/b/c', '../x', 'a/..', 'a%20b/c']) {
      const res = await client(token).get(`${f.server.url}/api/team_memory?repo=${r}`);
      expect(res.status, r).toBe(400);
      expect((await json(res)).error.details.error_code).toBe('invalid_repo');
    }
    const del = await fetch(f.api(repo), { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(del.status).toBe(405);
    expect((await json(del)).error.details.error_code).toBe('method_not_allowed');
  });

  it('answers /healthz, gives every response a request id and logs neither content nor tokens', async () => {
    const res = await fetch(`${f.server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const { repo, token } = await seeded({ 'secret-note.md': 'very private words' });
    const logged = JSON.stringify(f.logs.entries);
    expect(logged).toContain(repo);
    expect(logged).not.toContain('very private words');
    expect(logged).not.toContain(token);
  });
});
