import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { scanText } from '../../../../main/core/secrets/index.js';
import { InjectedCrash, type FaultPoint, type FaultSeam } from '../../../../main/core/team-sync/fault-seam.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { TeamSyncEngine } from '../../../../main/core/team-sync/team-sync-engine.js';
import { teamSyncStateDir } from '../../../../main/core/team-sync/team-sync-paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { startFaultProxy, type FaultProxy, type ProxyFault } from './fault-proxy.js';
import { freshRepo } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/**
 * The chaos test, bounded for CI: two teammates type, append and delete while a proxy injects 500s,
 * hangs, dropped connections (before and after the server applied a PUT) and truncated answers, and
 * each device crashes at random state-write and batch seams (a fresh engine on the same folders, as
 * after a restart; kill -9 at every seam as a real process is sync-crash.test.ts). With the faults
 * off, a few syncs must bring both vaults equal to the server with every typed line present, except
 * lines in a file the typing device's teammate deliberately deleted after seeing them.
 */
let server: SyncServer;
let proxy: FaultProxy;
let faults = true;
let random = Math.random;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-chaos-');
  const menu: ProxyFault[] = ['error-500', 'hang', 'drop-before', 'drop-after', 'truncate'];
  proxy = await startFaultProxy(server.url, () => (faults && random() < 0.3 ? menu[Math.floor(random() * menu.length)]! : 'pass'));
});

afterAll(async () => {
  await proxy.close();
  await server.close();
});

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Points crossed by sequential code only, so an in-process throw leaves nothing running behind it. */
const crashPoints: FaultPoint[] = ['after-batch-put', 'before-state-write', 'after-state-write'];

interface Teammate {
  name: string;
  teamDir: string;
  engine: TeamSyncEngine;
  crashes: number;
  restart(): void;
}

async function teammate(name: string, repo: string, token: string, crashArmed: () => boolean): Promise<Teammate> {
  const vault = await tempDir(`strata-chaos-${name}-`);
  const teamDir = path.join(vault, 'projects', 'p', 'memory', 'team');
  await fs.mkdir(teamDir, { recursive: true });
  const log = testLogger();
  const mate: Teammate = { name, teamDir, engine: null as unknown as TeamSyncEngine, crashes: 0, restart };
  const seam: FaultSeam = {
    hit(point) {
      if (crashPoints.includes(point) && crashArmed() && random() < 0.2) throw new InjectedCrash(point);
    },
  };
  function restart() {
    mate.engine = new TeamSyncEngine({
      repo,
      teamDir,
      stateDir: teamSyncStateDir(vault, repo),
      api: new TeamApi({ serverUrl: proxy.url, repo, getToken: async () => token, headersTimeoutMs: 150, requestTimeoutMs: 1500 }),
      scan: (text) => scanText(text),
      config: { ...defaultMemoryConfig.teamSync, networkRetries: 2 },
      clock: { now: () => Date.now() },
      logger: log.logger,
      sleep: async () => undefined,
      random,
      fault: seam,
    });
  }
  restart();
  return mate;
}

async function visible(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || e.name.startsWith('.')) continue;
    out[path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')] = await fs.readFile(path.join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

const KEYS = ['a.md', 'b.md', 'notes/c.md', 'notes/d.md'];

describe('team sync chaos (fault proxy, crashes, two teammates)', () => {
  it.each([1, 2, 3])('ends with both vaults equal to the server and every typed line present (seed %i)', async (seed) => {
    random = mulberry32(seed);
    faults = true;
    let crashing = true;
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const repo = freshRepo();
    const mates = [await teammate('a', repo, await server.member([repo]), () => crashing), await teammate('b', repo, await server.member([repo]), () => crashing)];
    /** Every typed line, by who typed it in which file; and what each teammate has seen per file. */
    const typed = new Map<string, string>();
    const seen = new Map<string, Set<string>>();
    const see = async (m: Teammate) => {
      for (const [key, text] of Object.entries(await visible(m.teamDir))) {
        const set = seen.get(`${m.name}:${key}`) ?? new Set<string>();
        for (const line of text.split('\n')) set.add(line);
        seen.set(`${m.name}:${key}`, set);
      }
    };
    const sync = async (m: Teammate) => {
      try {
        return await m.engine.sync({ confirmDeletions: true });
      } catch (error) {
        if (!(error instanceof InjectedCrash)) throw error;
        m.crashes++;
        m.restart();
        return null;
      }
    };

    for (let step = 0; step < 60; step++) {
      const m = pick(mates);
      const roll = random();
      const key = pick(KEYS);
      const file = path.join(m.teamDir, ...key.split('/'));
      if (roll < 0.45) {
        const line = `${m.name} typed at step ${step} (seed ${seed})`;
        const before = await fs.readFile(file, 'utf8').catch(() => '');
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(file, `${before}${line}\n`);
        typed.set(line, key);
        await see(m);
      } else if (roll < 0.55) {
        if ((await fs.readFile(file, 'utf8').catch(() => null)) === null) continue;
        // A deliberate deletion: the lines this teammate saw in that file may go.
        const saw = seen.get(`${m.name}:${key}`) ?? new Set<string>();
        for (const [line, at] of typed) if (at === key && saw.has(line)) typed.delete(line);
        await fs.rm(file);
      } else {
        await sync(m);
        await see(m);
      }
    }

    expect(mates[0]!.crashes + mates[1]!.crashes).toBeGreaterThan(0);
    faults = false;
    crashing = false;
    let quiet = false;
    for (let round = 0; round < 8 && !quiet; round++) {
      quiet = true;
      for (const m of mates) {
        const report = (await sync(m))!;
        expect(report.error).toBeNull();
        for (const key of report.conflicts) await m.engine.resolveConflict(key, { keep: 'both' });
        if (report.pulled.length + report.pushed.length + report.conflicts.length + report.pending.length > 0) quiet = false;
      }
    }
    expect(quiet).toBe(true);

    const reader = await server.member([repo]);
    const got = await new TeamApi({ serverUrl: server.url, repo, getToken: async () => reader }).get(null);
    const entries = got.kind === 'snapshot' ? (got.snapshot.entries ?? {}) : {};
    expect(await visible(mates[0]!.teamDir)).toEqual(entries);
    expect(await visible(mates[1]!.teamDir)).toEqual(entries);
    const everything = Object.values(entries).join('\n');
    expect([...typed.keys()].filter((line) => !everything.includes(line))).toEqual([]);
    // The run really was chaotic: faults of several kinds were injected.
    expect(Object.entries(proxy.injected).filter(([kind, n]) => kind !== 'pass' && n > 0).length).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
