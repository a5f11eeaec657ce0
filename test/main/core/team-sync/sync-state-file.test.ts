import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { freshRepo, makeDevice, SaveLedger } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/** The sync state file itself going bad (SQLite server; the client's recovery does not touch the server's storage). */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-state-db-');
});

afterAll(() => server.close());

describe('an invalid sync state file', () => {
  it.each([
    ['not JSON', '{"format":1,"etag":"sha256:'],
    ['JSON of another shape', JSON.stringify({ format: 1, etag: 42, bases: [] })],
  ])('(%s) is kept aside with a warning, and the sync goes on from an empty state losing nothing', async (_, garbage) => {
    const repo = freshRepo();
    const token = await server.member([repo]);
    const l = new SaveLedger();
    const a = await makeDevice('a', server.url, await server.member([repo]), repo);
    const b = await makeDevice('b', server.url, token, repo);
    await l.save(a, 'same.md', 'agreed\n');
    await l.save(a, 'edited.md', 'v1\n');
    await a.engine.sync();
    await b.engine.sync();
    await l.save(b, 'from-b.md', 'new from b\n');
    await b.engine.sync();
    await l.save(a, 'edited.md', 'v2 typed on a, not pushed yet\n');

    const stateFile = path.join(a.stateDir, 'state.json');
    await fs.writeFile(stateFile, garbage);
    const report = await a.engine.sync();

    const kept = (await fs.readdir(a.stateDir)).filter((n) => n.startsWith('state.json.invalid-'));
    expect(kept).toHaveLength(1);
    expect(await fs.readFile(path.join(a.stateDir, kept[0]!), 'utf8')).toBe(garbage);
    expect(report.warnings.join('\n')).toContain(`kept it as ${kept[0]}`);
    expect(a.log.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toContain('team sync state file was invalid; set aside, starting from an empty state');
    // No base: equal content is recorded, different content is a conflict with both kept, new files arrive.
    expect(report.error).toBeNull();
    expect(report.conflicts).toEqual(['edited.md']);
    expect(report.pulled).toEqual(['from-b.md']);
    expect(report.pushed).toEqual([]);
    expect(await a.read('edited.md')).toBe('v2 typed on a, not pushed yet\n');
    expect(await a.engine.readConflict('edited.md')).toMatchObject({ mine: 'v2 typed on a, not pushed yet\n', theirs: 'v1\n' });
    const states = await a.engine.fileStates();
    expect([states.get('same.md'), states.get('from-b.md'), states.get('edited.md')]).toEqual(['synced', 'synced', 'conflict']);
    // The new state is valid again: a second run sets nothing aside and keeps the conflict.
    const again = await a.engine.sync();
    expect(again.warnings).toEqual([]);
    expect(again.conflicts).toEqual(['edited.md']);

    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => token }).get(null);
    await l.assertNothingLost([a, b], got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {});
    a.log.assertNoErrors();
  });

  it('that cannot be read at all fails the run and stays where it is', async () => {
    const repo = freshRepo();
    const a = await makeDevice('a', server.url, await server.member([repo]), repo);
    await a.write('x.md', 'x\n');
    await a.engine.sync();
    const stateFile = path.join(a.stateDir, 'state.json');
    const before = await fs.readFile(stateFile, 'utf8');
    // A folder where the file should be: EISDIR on read, as unreadable as EACCES but also for root.
    await fs.rename(stateFile, `${stateFile}.moved`);
    await fs.mkdir(stateFile);
    const report = await a.engine.sync();
    expect(report.error?.code).toBe('local_io');
    expect((await fs.readdir(a.stateDir)).filter((n) => n.includes('.invalid-'))).toEqual([]);
    await fs.rmdir(stateFile);
    await fs.rename(`${stateFile}.moved`, stateFile);
    expect(await fs.readFile(stateFile, 'utf8')).toBe(before);
    expect((await a.engine.sync()).error).toBeNull();
    expect(a.log.entries.filter((e) => e.level === 'error')).toHaveLength(1);
  });
});
