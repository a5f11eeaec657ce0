import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSyncServer, type SyncServer } from './sync-server.js';

/**
 * The entry limit learned from a structured 413 is not kept forever (docs/memory.md#team-memory): it expires after 24 h,
 * and a server seen holding more entries than it has had its limit raised. The "raised" server is the
 * same SQLite database restarted with a higher --max-entries, as an operator would do.
 */
const HOUR = 3_600_000;
const servers: SyncServer[] = [];

// Runs before temp-dir's own afterEach (hooks run last-registered first), so the folder goes after the server.
afterEach(() => Promise.all(servers.splice(0).map((s) => s.close())));

async function database(): Promise<string> {
  return `sqlite:${path.join(await tempDir('strata-sync-limit-db-'), 'team.db')}`;
}

async function serve(db: string, maxEntries: number): Promise<SyncServer> {
  const server = await startSyncServer(db, { maxEntries });
  servers.push(server);
  return server;
}

/** Device `a` again after a server restart: same folders and clock, the new server's URL. */
function reconnect(a: Device, server: SyncServer, token: string, repo: string, now: () => number): Promise<Device> {
  return makeDevice('a', server.url, token, repo, { teamDir: a.teamDir, stateDir: a.stateDir, clock: { now } });
}

const puts = (d: Device) => d.requests.filter((r) => r.method === 'PUT').length;

describe('the learned entry limit', () => {
  it('expires after 24 hours: tried again on a server still limited, used fully once the limit is raised', async () => {
    const db = await database();
    const limited = await serve(db, 4);
    const repo = freshRepo();
    const token = await limited.member([repo]);
    let now = Date.parse('2026-12-03T12:00:00.000Z');
    const clock = () => now;
    const a = await makeDevice('a', limited.url, token, repo, { clock: { now: clock } });
    for (const n of [1, 2, 3, 4, 5, 6]) await a.write(`n${n}.md`, `${n}\n`);
    expect((await a.engine.sync()).pending).toEqual(['n5.md', 'n6.md']);

    now += 23 * HOUR;
    const before = puts(a);
    expect((await a.engine.sync()).pending).toEqual(['n5.md', 'n6.md']);
    expect(puts(a)).toBe(before);

    // Past 24 h: one PUT tries the full set, the 413 teaches the limit again, nothing loops or is lost.
    now += 2 * HOUR;
    const retried = await a.engine.sync();
    expect(puts(a)).toBe(before + 1);
    expect(retried.pending).toEqual(['n5.md', 'n6.md']);
    expect(retried.warnings.join(' ')).toMatch(/at most 4 files/);

    await limited.close();
    servers.splice(servers.indexOf(limited), 1);
    const raised = await serve(db, 10);
    const a2 = await reconnect(a, raised, token, repo, clock);
    now += 23 * HOUR;
    expect((await a2.engine.sync()).pending).toEqual(['n5.md', 'n6.md']);
    expect(puts(a2)).toBe(0);
    now += 2 * HOUR;
    const full = await a2.engine.sync();
    expect(full).toMatchObject({ pushed: ['n5.md', 'n6.md'], pending: [], error: null });
  });

  it('is forgotten at once when the server is seen holding more entries than it', async () => {
    const db = await database();
    const limited = await serve(db, 4);
    const repo = freshRepo();
    const token = await limited.member([repo]);
    const tokenB = await limited.member([repo]);
    const now = () => Date.parse('2026-12-03T12:00:00.000Z');
    const a = await makeDevice('a', limited.url, token, repo, { clock: { now } });
    for (const n of [1, 2, 3, 4, 5, 6]) await a.write(`n${n}.md`, `${n}\n`);
    expect((await a.engine.sync()).pending).toEqual(['n5.md', 'n6.md']);

    await limited.close();
    servers.splice(servers.indexOf(limited), 1);
    const raised = await serve(db, 10);
    const b = await makeDevice('b', raised.url, tokenB, repo);
    await b.write('from-b.md', 'b\n');
    expect((await b.engine.sync()).pushed).toEqual(['from-b.md']);

    // Same clock time: not expired, but the pull shows 5 entries against a learned limit of 4.
    const a2 = await reconnect(a, raised, token, repo, now);
    const report = await a2.engine.sync();
    expect(report).toMatchObject({ pulled: ['from-b.md'], pushed: ['n5.md', 'n6.md'], pending: [], error: null });
    expect(report.warnings).toEqual([]);
  });
});
