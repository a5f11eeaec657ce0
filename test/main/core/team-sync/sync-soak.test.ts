import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/**
 * docs/sync-protocol.md#a-client-that-loses-nothing test 16, small: two devices make seeded random edits, deletions, syncs, offline
 * periods, lost answers and resets against the real server; at quiescence (conflicts resolved "keep
 * both") every device's last save is still reachable unless a user who had seen it edited over it or
 * deleted it, and both devices and the server agree.
 */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-soak-db-');
});

afterAll(() => server.close());

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function visible(d: Device): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(d.teamDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || e.name.startsWith('.')) continue;
    const key = path.relative(d.teamDir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    out[key] = await fs.readFile(path.join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

const KEYS = ['a.md', 'b.md', 'c.md', 'notes/d.md', 'notes/e.md'];

describe('team sync randomized soak', () => {
  it.each(Array.from({ length: Number(process.env.STRATA_SOAK_SEEDS ?? 8) }, (_, i) => i + 1))('loses nothing and converges (seed %i)', async (seed) => {
    const random = mulberry32(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const repo = freshRepo();
    const devices = [
      await makeDevice('a', server.url, await server.member([repo]), repo),
      await makeDevice('b', server.url, await server.member([repo]), repo),
    ];
    const token = await server.member([repo]);
    /** Last save per device and key, and every text each device ever had on disk per key. */
    const last = new Map<string, string>();
    const seen = new Map<string, Set<string>>();
    const see = async (d: Device) => {
      for (const [k, v] of Object.entries(await visible(d))) {
        const set = seen.get(`${d.name}:${k}`) ?? new Set<string>();
        set.add(v);
        seen.set(`${d.name}:${k}`, set);
      }
    };

    const forgetSeen = (d: Device, key: string) => {
      const saw = seen.get(`${d.name}:${key}`) ?? new Set<string>();
      for (const [id, text] of last) if (id.endsWith(`:${key}`) && saw.has(text)) last.delete(id);
    };

    for (let step = 0; step < 120; step++) {
      const d = pick(devices);
      const roll = random();
      if (roll < 0.4) {
        const key = pick(KEYS);
        const text = `${d.name} step ${step} seed ${seed}\n`;
        // Editing over a version this user has seen supersedes it on purpose (no version history).
        forgetSeen(d, key);
        last.set(`${d.name}:${key}`, text);
        await d.write(key, text);
        await see(d);
      } else if (roll < 0.5) {
        const key = pick(KEYS);
        if ((await d.read(key)) === null) continue;
        // A deliberate deletion: texts this device saw under that key may go.
        forgetSeen(d, key);
        await d.remove(key);
      } else if (roll < 0.6) {
        d.net.offline = !d.net.offline;
      } else if (roll < 0.65) {
        d.net.dropPutAnswers = 1;
      } else if (roll < 0.7) {
        d.net.resetPutsBeforeApply = 1;
      } else {
        await d.engine.sync();
        await see(d);
      }
    }

    for (const d of devices) Object.assign(d.net, { offline: false, dropPutAnswers: 0, resetPutsBeforeApply: 0 });
    let quiet = false;
    for (let round = 0; round < 8 && !quiet; round++) {
      quiet = true;
      for (const d of devices) {
        const report = await d.engine.sync();
        expect(report.error).toBeNull();
        for (const key of report.conflicts) await d.engine.resolveConflict(key, { keep: 'both' });
        if (report.pulled.length + report.pushed.length + report.conflicts.length + report.pending.length > 0) quiet = false;
      }
    }
    expect(quiet).toBe(true);

    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => token }).get(null);
    const entries = got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {};
    const [a, b] = [await visible(devices[0]!), await visible(devices[1]!)];
    expect(a).toEqual(entries);
    expect(b).toEqual(entries);
    const reachable = new Set(Object.values(entries));
    expect([...last].filter(([, text]) => !reachable.has(text))).toEqual([]);
    for (const d of devices) d.log.assertNoErrors();
  }, 60_000);
});
