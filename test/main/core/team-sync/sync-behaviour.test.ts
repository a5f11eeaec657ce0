import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/** Deletions, limits, batching, mtimes and backoff against the real server (SQLite). */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-db-', { maxEntries: 4 });
});

afterAll(() => server.close());

async function pair(): Promise<{ repo: string; a: Device; b: Device; entries: () => Promise<Record<string, string>> }> {
  const repo = freshRepo();
  const a = await makeDevice('a', server.url, await server.member([repo]), repo);
  const b = await makeDevice('b', server.url, await server.member([repo]), repo);
  const token = await server.member([repo]);
  const entries = async () => {
    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => token }).get(null);
    return got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {};
  };
  return { repo, a, b, entries };
}

describe('team sync behaviour', () => {
  it('propagates a deletion as a tombstone and lets the other side restore it', async () => {
    const { a, b, entries } = await pair();
    await a.write('old.md', 'old notes\n');
    await a.engine.sync();
    await b.engine.sync();
    expect(await b.read('old.md')).toBe('old notes\n');

    await a.remove('old.md');
    expect((await a.engine.sync()).pushed).toEqual(['old.md']);
    expect(await entries()).toEqual({});
    expect((await b.engine.sync()).pulled).toEqual(['old.md']);
    expect(await b.read('old.md')).toBeNull();
    expect((await b.engine.listDeleted()).map((d) => [d.key, d.by])).toEqual([['old.md', 'remote']]);

    await b.engine.restoreDeleted('old.md');
    expect(await b.read('old.md')).toBe('old notes\n');
    await b.engine.sync();
    expect(await entries()).toEqual({ 'old.md': 'old notes\n' });
    await a.engine.sync();
    expect(await a.read('old.md')).toBe('old notes\n');
  });

  it('lets an edit win over a concurrent deletion, on both sides', async () => {
    const { a, b, entries } = await pair();
    await a.write('x.md', 'x\n');
    await a.write('y.md', 'y\n');
    await a.engine.sync();
    await b.engine.sync();
    // A deletes x while B edits it; B deletes y while A edits it.
    await a.remove('x.md');
    await b.write('x.md', 'x edited by b\n');
    await b.remove('y.md');
    await a.write('y.md', 'y edited by a\n');
    await a.engine.sync();
    await b.engine.sync();
    await a.engine.sync();
    await b.engine.sync();
    expect(await entries()).toEqual({ 'x.md': 'x edited by b\n', 'y.md': 'y edited by a\n' });
    for (const d of [a, b]) {
      expect(await d.read('x.md')).toBe('x edited by b\n');
      expect(await d.read('y.md')).toBe('y edited by a\n');
    }
  });

  it('sees an edit of a just-pulled file that keeps its size (the quick check trusts size and mtime only)', async () => {
    const { a, b, entries } = await pair();
    await a.write('plan.md', 'ship on monday\n');
    await a.engine.sync();
    expect((await b.engine.pull()).pulled).toEqual(['plan.md']);
    expect((await b.engine.fileStates()).get('plan.md')).toBe('synced');
    // Same length, other words: only the mtime (now, not the server's time) tells the edit apart.
    await b.write('plan.md', 'ship on friday\n');
    expect((await b.engine.fileStates()).get('plan.md')).toBe('pending');
    expect((await b.engine.sync()).pushed).toEqual(['plan.md']);
    expect((await entries())['plan.md']).toBe('ship on friday\n');
  });

  it('records a change both sides made identically without a conflict or an upload', async () => {
    const { a, b } = await pair();
    await a.write('same.md', 'v1\n');
    await a.engine.sync();
    await b.engine.sync();
    await a.write('same.md', 'v2\n');
    await b.write('same.md', 'v2\n');
    await a.engine.sync();
    const report = await b.engine.sync();
    expect(report.conflicts).toEqual([]);
    expect(report.pushed).toEqual([]);
    expect((await b.engine.fileStates()).get('same.md')).toBe('synced');
  });

  it("keeps a file a new device created before its first pull when the server has one of the same name", async () => {
    const { a, b, entries } = await pair();
    await a.write('daily.md', 'from a\n');
    await a.engine.sync();
    await b.write('daily.md', 'typed on b before its first sync\n');
    const report = await b.engine.sync();
    expect(report.conflicts).toEqual(['daily.md']);
    expect(await b.read('daily.md')).toBe('typed on b before its first sync\n');
    expect(await b.engine.readConflict('daily.md')).toMatchObject({ base: null, theirs: 'from a\n' });
    expect((await entries())['daily.md']).toBe('from a\n');
  });

  it('batches bodies up to 200,000 bytes and never sends a file over 250,000 bytes', async () => {
    const { a, entries } = await pair();
    await a.write('one.md', 'a'.repeat(120_000));
    await a.write('two.md', 'b'.repeat(120_000));
    await a.write('huge.md', 'c'.repeat(250_001));
    const report = await a.engine.sync();
    expect(report.tooLarge).toEqual(['huge.md']);
    expect(report.pushed).toEqual(['one.md', 'two.md']);
    const puts = a.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    for (const p of puts) expect(Buffer.byteLength(p.body)).toBeLessThanOrEqual(200_000);
    expect(puts.some((p) => p.body.includes('ccccc'))).toBe(false);
    expect(Object.keys(await entries()).sort()).toEqual(['one.md', 'two.md']);
    expect((await a.engine.fileStates()).get('huge.md')).toBe('too-large');
  });

  it('learns the entry limit from a structured 413 and keeps the files that do not fit pending', async () => {
    const { a, entries } = await pair();
    for (const n of [1, 2, 3, 4, 5, 6]) await a.write(`n${n}.md`, `${n}\n`);
    const report = await a.engine.sync();
    expect(report.pushed).toEqual(['n1.md', 'n2.md', 'n3.md', 'n4.md']);
    expect(report.pending).toEqual(['n5.md', 'n6.md']);
    expect(report.warnings.join(' ')).toMatch(/at most 4 files/);
    expect(Object.keys(await entries()).sort()).toEqual(['n1.md', 'n2.md', 'n3.md', 'n4.md']);
    // The limit is remembered: the next run does not knock on the server again with an oversized PUT.
    const before = a.requests.filter((r) => r.method === 'PUT').length;
    await a.engine.sync();
    expect(a.requests.filter((r) => r.method === 'PUT').length).toBe(before);
  });

  it('reports files whose names the server refuses, with the reason, and syncs the rest', async () => {
    const { a, entries } = await pair();
    await a.write('ok.md', 'fine\n');
    await a.write('draft..md', 'two dots\n');
    await a.write('a%2Fb.md', 'encoded slash\n');
    await a.write('back\\slash.md', 'backslash\n');
    await a.write('v1..v2/notes.md', 'in a folder the server refuses\n');
    const report = await a.engine.sync();
    expect(report.error).toBeNull();
    expect(report.pushed).toEqual(['ok.md']);
    expect(report.pending).toEqual([]);
    expect(report.invalidNames).toEqual([
      { key: 'a%2Fb.md', reason: 'its URL-decoded form contains another /' },
      { key: 'back\\slash.md', reason: 'it contains a backslash' },
      { key: 'draft..md', reason: 'it contains ..' },
      { key: 'v1..v2/notes.md', reason: 'it contains ..' },
    ]);
    expect(await entries()).toEqual({ 'ok.md': 'fine\n' });
    const states = await a.engine.fileStates();
    expect(Object.fromEntries(states)).toEqual({
      'ok.md': 'synced',
      'draft..md': 'invalid-name',
      'a%2Fb.md': 'invalid-name',
      'back\\slash.md': 'invalid-name',
      'v1..v2/notes.md': 'invalid-name',
    });
    // Left in place, untouched, and reported again on every run.
    expect(await a.read('draft..md')).toBe('two dots\n');
    expect((await a.engine.sync()).invalidNames).toHaveLength(4);
  });

  it("stamps pulled files with the server's lastModified", async () => {
    const { a, b, repo } = await pair();
    await a.write('dated.md', 'dated\n');
    await a.engine.sync();
    await b.engine.sync();
    const token = await server.member([repo]);
    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => token }).get(null);
    const lastModified = got.kind === 'snapshot' ? Date.parse(got.snapshot.lastModified) : NaN;
    const stat = await fs.stat(path.join(b.teamDir, 'dated.md'));
    expect(Math.abs(stat.mtimeMs - lastModified)).toBeLessThan(1000);
  });

  it('backs off 500 ms × 2^(n−1) with at most 25 % jitter on network errors, then reports offline', async () => {
    const { a } = await pair();
    await a.write('n.md', 'n\n');
    a.net.offline = true;
    const report = await a.engine.sync();
    expect(report.error?.code).toBe('offline');
    expect(a.sleeps).toEqual([500, 1000, 2000, 4000, 8000].map((ms) => Math.round(ms * (1 - 0.25 * 0.5))));
    expect(a.engine.status().phase).toBe('offline');
    expect(a.engine.status().pending).toBe(1);
  });
});
