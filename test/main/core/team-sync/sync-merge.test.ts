import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultSeamFrom, InjectedCrash } from '../../../../main/core/team-sync/fault-seam.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/**
 * Conflicts only when there is one: the user's own text accepted by the server but never recorded, or a
 * pulled file renamed just before a crash, is the base; edits to different lines merge against it.
 */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-merge-');
});

afterAll(() => server.close());

async function team() {
  const repo = freshRepo();
  const tokens = [await server.member([repo]), await server.member([repo])];
  const reader = await server.member([repo]);
  const entries = async () => {
    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => reader }).get(null);
    return got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {};
  };
  const device = (name: string, i: number, overrides = {}) => makeDevice(name, server.url, tokens[i]!, repo, overrides);
  return { repo, device, entries };
}

/** The same vault opened again by a fresh engine, as after a restart. */
async function restarted(crashed: Device, make: () => Promise<Device>): Promise<Device> {
  const again = await make();
  await fs.rm(again.vault, { recursive: true, force: true });
  await fs.cp(crashed.vault, again.vault, { recursive: true });
  return again;
}

const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('team sync conflicts only when there is one', () => {
  it('takes a PUT the server accepted before a crash as the base: a later edit pushes, no conflict', async () => {
    const { device, entries } = await team();
    const a = await device('a', 0);
    await a.write('note.md', 'v1\n');
    await a.engine.sync();
    const crashing = await device('a-crash', 0, { fault: faultSeamFrom('after-batch-put', 'throw') });
    await fs.rm(crashing.vault, { recursive: true, force: true });
    await fs.cp(a.vault, crashing.vault, { recursive: true });
    await crashing.write('note.md', 'v2 typed by a\n');
    await expect(crashing.engine.sync()).rejects.toBeInstanceOf(InjectedCrash);
    expect((await entries())['note.md']).toBe('v2 typed by a\n');

    const after = await restarted(crashing, () => device('a-after', 0));
    await after.write('note.md', 'v3 typed by a\n');
    const report = await after.engine.sync();
    expect(report.conflicts).toEqual([]);
    expect(report.pushed).toEqual(['note.md']);
    expect((await entries())['note.md']).toBe('v3 typed by a\n');
  });

  it('takes a PUT whose answer was lost as the base, even with an edit typed before the next sync', async () => {
    const { device, entries } = await team();
    const a = await device('a', 0);
    await a.write('note.md', 'v1\n');
    await a.engine.sync();
    await a.write('note.md', 'v2\n');
    // The PUT reaches the server, its answer is lost, and the network stays down for the rest of the run.
    a.net.dropPutAnswers = 1;
    let putSent = false;
    a.net.before = async (method) => {
      if (putSent) a.net.offline = true;
      if (method === 'PUT') putSent = true;
    };
    expect((await a.engine.sync()).error?.code).toBe('offline');
    expect((await entries())['note.md']).toBe('v2\n');
    a.net.before = undefined;
    a.net.offline = false;
    await a.write('note.md', 'v3\n');
    const report = await a.engine.sync();
    expect(report.conflicts).toEqual([]);
    expect((await entries())['note.md']).toBe('v3\n');
  });

  it('takes a pulled file renamed just before a crash as the base: a teammate’s next edit is pulled, no conflict', async () => {
    const { device, entries } = await team();
    const a = await device('a', 0);
    const b = await device('b', 1);
    await a.write('note.md', 'v1\n');
    await a.engine.sync();
    await b.engine.sync();
    await a.write('note.md', 'v2 by a\n');
    await a.engine.sync();
    const crashing = await device('b-crash', 1, { fault: faultSeamFrom('after-pull-rename', 'throw') });
    await fs.rm(crashing.vault, { recursive: true, force: true });
    await fs.cp(b.vault, crashing.vault, { recursive: true });
    await expect(crashing.engine.sync()).rejects.toBeInstanceOf(InjectedCrash);
    expect(await crashing.read('note.md')).toBe('v2 by a\n');
    await a.write('note.md', 'v3 by a\n');
    await a.engine.sync();

    const after = await restarted(crashing, () => device('b-after', 1));
    const report = await after.engine.sync();
    expect(report.conflicts).toEqual([]);
    expect(await after.read('note.md')).toBe('v3 by a\n');
    expect((await entries())['note.md']).toBe('v3 by a\n');
  });

  it('merges edits to different lines against the stored base, pushes the merge, and both vaults agree', async () => {
    const { device, entries } = await team();
    const a = await device('a', 0);
    const b = await device('b', 1);
    await a.write('plan.md', lines('# Plan', 'one', 'two', 'three', 'four'));
    await a.engine.sync();
    await b.engine.sync();
    await a.write('plan.md', lines('# Plan', 'one, edited by a', 'two', 'three', 'four'));
    await b.write('plan.md', lines('# Plan', 'one', 'two', 'three', 'four, edited by b'));
    await a.engine.sync();
    const report = await b.engine.sync();
    expect(report.conflicts).toEqual([]);
    expect(report.merged).toEqual(['plan.md']);
    expect(report.pushed).toEqual(['plan.md']);
    const merged = lines('# Plan', 'one, edited by a', 'two', 'three', 'four, edited by b');
    expect(await b.read('plan.md')).toBe(merged);
    expect((await entries())['plan.md']).toBe(merged);
    expect((await a.engine.sync()).conflicts).toEqual([]);
    expect(await a.read('plan.md')).toBe(merged);
  });

  it('still keeps both versions as a conflict when the edits overlap', async () => {
    const { device } = await team();
    const a = await device('a', 0);
    const b = await device('b', 1);
    await a.write('plan.md', lines('one', 'two'));
    await a.engine.sync();
    await b.engine.sync();
    await a.write('plan.md', lines('one', 'two by a'));
    await b.write('plan.md', lines('one', 'two by b'));
    await a.engine.sync();
    const report = await b.engine.sync();
    expect(report.merged).toEqual([]);
    expect(report.conflicts).toEqual(['plan.md']);
    expect(await b.engine.readConflict('plan.md')).toMatchObject({ mine: lines('one', 'two by b'), theirs: lines('one', 'two by a'), base: lines('one', 'two') });
  });
});

describe('team sync keep both', () => {
  it('shows who made the other change and when; keep both keeps yours as a distinct memory listed in MEMORY.md', async () => {
    const { device, entries } = await team();
    const a = await device('a', 0);
    const b = await device('b', 1);
    const memory = (name: string, body: string) => `---\nname: ${name}\ndescription: release steps\ntype: project\n---\n\n${body}\n`;
    await a.write('MEMORY.md', '- [Release plan](plan.md) — release steps\n');
    await a.write('plan.md', memory('Release plan', 'ship on friday'));
    await a.engine.sync();
    await b.engine.sync();
    await a.write('plan.md', memory('Release plan', 'ship on monday'));
    await b.write('plan.md', memory('Release plan', 'ship on tuesday'));
    const before = Date.now();
    await a.engine.sync();
    expect((await b.engine.sync()).conflicts).toEqual(['plan.md']);

    const view = await b.engine.readConflict('plan.md');
    expect(view.theirsBy).toMatch(/^sync\d+_\d+$/);
    expect(Date.parse(view.theirsAt!)).toBeGreaterThanOrEqual(before - 1000);
    await b.engine.resolveConflict('plan.md', { keep: 'both' });
    // The team's version stays under the shared name; b's own text becomes a memory of its own, named apart and listed.
    expect(await b.read('plan.md')).toBe(memory('Release plan', 'ship on monday'));
    const index = (await b.read('MEMORY.md'))!;
    const copyKey = /\]\(([^)]+)\)/g.exec(index.split('\n')[1] ?? '')?.[1];
    expect(copyKey).toBeDefined();
    expect(copyKey).not.toBe('plan.md');
    const copy = (await b.read(copyKey!))!;
    expect(copy).toContain('ship on tuesday');
    expect(copy).not.toMatch(/^name: Release plan$/m);
    expect((await b.engine.sync()).conflicts).toEqual([]);
    const report = await a.engine.sync();
    expect(report.conflicts).toEqual([]);
    expect(Object.keys(await entries()).sort()).toEqual(['MEMORY.md', copyKey!, 'plan.md'].sort());
  });
});
