import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { hashText } from '../../../../main/core/team-sync/team-key.js';
import { freshRepo, makeDevice } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';
import { staleTempMs } from '../../../../main/core/team-sync/temp-cleanup.js';

/**
 * One teammate's ordinary file never stops the team (docs on team sync, isolation): names at the file
 * system's limit, a key that is a folder here, dot-files, colliding names, temp files left by a crash.
 */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-isolation-');
});

afterAll(() => server.close());

async function team() {
  const repo = freshRepo();
  const a = await makeDevice('a', server.url, await server.member([repo]), repo);
  const b = await makeDevice('b', server.url, await server.member([repo]), repo);
  const api = new TeamApi({ serverUrl: server.url, repo, getToken: (async (token: string) => token).bind(null, await server.member([repo])) });
  const entries = async () => {
    const got = await api.get(null);
    return got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {};
  };
  return { repo, a, b, api, entries };
}

/** Adds entries the way a server without today's key checks stored them (straight into its database). */
async function plantLegacyEntries(repo: string, planted: Record<string, string>): Promise<void> {
  const backup = await server.backup(repo);
  const row = backup.repo[0]!;
  const version = Number(row.version) + 1;
  const extra = Object.entries(planted).map(([key, text]) => ({ repo, key, content: Buffer.from(text, 'utf8'), checksum: hashText(text), deleted_at: null }));
  await server.restore(repo, {
    repo: [{ ...row, version, checksum: hashText(`planted ${version}`), entry_count: Number(row.entry_count) + extra.length }],
    entries: [...backup.entries, ...extra],
  });
}

describe('team sync isolation', () => {
  it('syncs a 240-character name both ways: the temp name never pushes it over the limit', async () => {
    const { a, b, entries } = await team();
    const key = `${'n'.repeat(240)}.md`;
    await a.write(key, 'long name\n');
    expect((await a.engine.sync()).error).toBeNull();
    const pulled = await b.engine.sync();
    expect(pulled.error).toBeNull();
    expect(pulled.failed).toEqual([]);
    expect(await b.read(key)).toBe('long name\n');
    expect(Object.keys(await entries())).toEqual([key]);
  });

  it('pulls every other file when one cannot be written here, says why on that file, and keeps pushing', async () => {
    const { repo, a, b, entries } = await team();
    await a.write('ok.md', 'ok\n');
    await a.engine.sync();
    await plantLegacyEntries(repo, { 'x.md': 'file\n', 'x.md/y.md': 'inside\n', [`${'é'.repeat(130)}.md`]: 'too long for ext4\n', 'z.md': 'after them\n' });

    await b.write('mine.md', 'typed on b\n');
    const report = await b.engine.sync();
    expect(report.error).toBeNull();
    expect(await b.read('ok.md')).toBe('ok\n');
    expect(await b.read('z.md')).toBe('after them\n');
    expect(report.failed.map((f) => f.key).sort()).toEqual([`${'é'.repeat(130)}.md`, expect.stringMatching(/^x\.md/)].sort());
    const long = report.failed.find((f) => f.key.startsWith('é'))!;
    expect(long).toMatchObject({ step: 'pull', advice: 'ask the teammate who added it to rename it' });
    expect(long.reason).toMatch(/cannot hold its name: .* longer than 255 bytes/);
    expect(report.pushed).toEqual(['mine.md']);
    expect((await entries())['mine.md']).toBe('typed on b\n');
    expect((await b.engine.fileStates()).get('mine.md')).toBe('synced');
    // The server keeps what b could not write: b never turns its own failure into a deletion.
    await b.engine.sync();
    expect(Object.keys(await entries()).sort()).toEqual([`${'é'.repeat(130)}.md`, 'mine.md', 'ok.md', 'x.md', 'x.md/y.md', 'z.md'].sort());
  });

  it('refuses a local folder that is a teammate’s file on the server for that file alone; everything else syncs', async () => {
    const { a, b, entries } = await team();
    await a.write('x.md', 'a file on a\n');
    await a.engine.sync();
    await b.write('x.md/y.md', 'a folder on b\n');
    await b.write('fine.md', 'fine\n');
    const report = await b.engine.sync();
    expect(report.error).toBeNull();
    expect(report.pushed).toEqual(['fine.md']);
    const failed = Object.fromEntries(report.failed.map((f) => [f.key, f]));
    expect(failed['x.md']).toMatchObject({ step: 'pull', reason: 'a file and a folder here share its name' });
    expect(failed['x.md/y.md']).toMatchObject({ step: 'push', advice: 'rename the file; it syncs under its new name' });
    expect(failed['x.md/y.md']!.reason).toMatch(/folder "x.md" is the existing file/);
    expect((await b.engine.fileStates()).get('x.md/y.md')).toBe('failed');
    expect(await b.read('x.md/y.md')).toBe('a folder on b\n');
    expect(await entries()).toEqual({ 'x.md': 'a file on a\n', 'fine.md': 'fine\n' });
    expect((await a.engine.sync()).pulled).toEqual(['fine.md']);
  });

  it('never deletes a teammate’s dot-files from the server: what is ignored here is not a deletion', async () => {
    const { api, b, entries } = await team();
    const put = await api.put({ '.top.md': 'top\n', 'sub/.hidden.md': 'hidden\n', 'sub/seen.md': 'seen\n', '.cfg/x.md': 'in a dot-folder\n' }, null);
    expect(put.kind).toBe('ok');
    for (let run = 0; run < 2; run++) {
      const report = await b.engine.sync();
      expect(report.error).toBeNull();
      expect(report.pushed).toEqual([]);
    }
    expect(await b.read('sub/.hidden.md')).toBe('hidden\n');
    expect(Object.keys(await entries()).sort()).toEqual(['.cfg/x.md', '.top.md', 'sub/.hidden.md', 'sub/seen.md']);
    // A real deletion of a synced file still goes through.
    await b.remove('sub/seen.md');
    expect((await b.engine.sync()).pushed).toEqual(['sub/seen.md']);
  });

  it('syncs one of two names that differ only in case and lists the other as not synced, never failing the batch', async () => {
    const { a, b, entries } = await team();
    await a.write('Plan.md', 'capital\n');
    await a.write('plan.md', 'lower\n');
    await a.write('other.md', 'other\n');
    const report = await a.engine.sync();
    expect(report.error).toBeNull();
    expect(report.pushed).toEqual(['Plan.md', 'other.md']);
    expect(report.invalidNames).toEqual([{ key: 'plan.md', reason: expect.stringMatching(/only in case/) }]);
    expect(await entries()).toEqual({ 'Plan.md': 'capital\n', 'other.md': 'other\n' });
    expect((await b.engine.sync()).pulled).toEqual(['Plan.md', 'other.md']);
  });

  it('removes temp files a killed write left, at the first run, and leaves a fresh one alone', async () => {
    const { a } = await team();
    const stale = [path.join(a.teamDir, '.strata-0123456789ab.tmp'), path.join(a.teamDir, 'sub', '.note.md.0123456789ab.tmp'), path.join(a.stateDir, 'bases', '.0123456789abcdef.01234567.tmp')];
    const fresh = path.join(a.teamDir, '.strata-ba9876543210.tmp');
    for (const file of [...stale, fresh]) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, 'half a write');
    }
    const old = new Date(Date.now() - 3_600_000);
    for (const file of stale) await fs.utimes(file, old, old);
    await a.engine.sync();
    for (const file of stale) await expect(fs.stat(file), file).rejects.toThrow(/ENOENT/);
    expect(await fs.readFile(fresh, 'utf8')).toBe('half a write');
  });

  it('removes a temp file that was too young at the first run once it is old enough, in the same session', async () => {
    const repo = freshRepo();
    let later = 0;
    const a = await makeDevice('a', server.url, await server.member([repo]), repo, { clock: { now: () => Date.now() + later } });
    // Left by a first pull killed a moment before this restart.
    const young = path.join(a.teamDir, '.strata-0a1b2c3d4e5f.tmp');
    await fs.writeFile(young, 'a staged download');
    await a.engine.sync();
    expect(await fs.readFile(young, 'utf8')).toBe('a staged download');
    later = 5 * 60_000;
    await a.engine.sync();
    expect(await fs.readFile(young, 'utf8')).toBe('a staged download');
    later = staleTempMs + 60_000;
    await a.engine.sync();
    await expect(fs.stat(young)).rejects.toThrow(/ENOENT/);
  });
});
