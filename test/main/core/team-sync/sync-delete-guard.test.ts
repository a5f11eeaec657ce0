import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { massDeleteLimit } from '../../../../main/core/team-sync/delete-guard.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/** The mass-delete guard: deletions re-checked, at most about a quarter at once, a vanished folder restored. */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-guard-');
});

afterAll(() => server.close());

async function seeded(count: number, overrides = {}) {
  const repo = freshRepo();
  const reader = await server.member([repo]);
  const a = await makeDevice('a', server.url, await server.member([repo]), repo, overrides);
  for (let i = 0; i < count; i++) await a.write(`n${String(i).padStart(2, '0')}.md`, `note ${i}\n`);
  expect((await a.engine.sync()).pushed).toHaveLength(count);
  const keys = async () => {
    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => reader }).get(null);
    return Object.keys(got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {}).length;
  };
  return { a, keys };
}

describe('team sync mass-delete guard', () => {
  it('allows a quarter of the folder, at least 8 and at most 50, per sync', () => {
    expect([0, 10, 40, 100, 1000].map(massDeleteLimit)).toEqual([8, 8, 10, 25, 50]);
  });

  it('pushes deletions up to the limit, holds more until the user confirms, and says so', async () => {
    const { a, keys } = await seeded(40);
    for (let i = 0; i < 10; i++) await a.remove(`n${String(i).padStart(2, '0')}.md`);
    expect((await a.engine.sync()).pushed).toHaveLength(10);
    expect(await keys()).toBe(30);

    for (let i = 10; i < 30; i++) await a.remove(`n${String(i).padStart(2, '0')}.md`);
    const held = await a.engine.sync();
    expect(held.pushed).toEqual([]);
    expect(held.heldDeletions).toHaveLength(20);
    expect(held.warnings.join('\n')).toMatch(/20 files were deleted here; .*until you confirm/);
    expect(await keys()).toBe(30);
    expect((await a.engine.sync({ confirmDeletions: true })).pushed).toHaveLength(20);
    expect(await keys()).toBe(10);
  });

  it('does not push a deletion whose file is back at the re-check a moment later', async () => {
    const late: { device?: Device } = {};
    const { a, keys } = await seeded(3, {
      // The re-check's wait: an editor's save-by-rename puts the file back meanwhile.
      sleep: async () => late.device?.write('n01.md', 'saved again\n'),
    });
    late.device = a;
    await a.remove('n01.md');
    expect((await a.engine.sync()).pushed).toEqual([]);
    expect(await keys()).toBe(3);
    // The new text is an ordinary edit, pushed by the next sync.
    expect((await a.engine.sync()).pushed).toEqual(['n01.md']);
    expect(await a.read('n01.md')).toBe('saved again\n');
  });

  it('restores a team folder that vanished instead of deleting everything for the team', async () => {
    const { a, keys } = await seeded(5);
    await fs.rm(a.teamDir, { recursive: true, force: true });
    const report = await a.engine.sync();
    expect(report.pushed).toEqual([]);
    expect(report.pulled).toHaveLength(5);
    expect(report.warnings.join('\n')).toMatch(/team folder was empty; restored its 5 files/);
    expect(await a.read('n03.md')).toBe('note 3\n');
    expect(await keys()).toBe(5);
  });
});
