import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { scanText } from '../../../../main/core/secrets/index.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { TeamSyncEngine } from '../../../../main/core/team-sync/team-sync-engine.js';
import { teamSyncStateDir } from '../../../../main/core/team-sync/team-sync-paths.js';
import type { TeamSyncEngineOptions } from '../../../../main/core/team-sync/sync-types.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

let repos = 0;
/** A repository name no other test uses (one server database serves a whole suite). */
export function freshRepo(): string {
  return `acme/sync-${++repos}-${process.pid}`;
}

/**
 * One device: its own temp vault, its own engine, and a fetch wrapper that records every request body
 * and lets a test drop responses, go offline, or let a teammate act before a request.
 */
export interface Device {
  name: string;
  vault: string;
  teamDir: string;
  stateDir: string;
  engine: TeamSyncEngine;
  /** Every request this device sent: method and body (for the canary-secret check). */
  requests: { method: string; url: string; body: string }[];
  sleeps: number[];
  net: NetFaults;
  log: ReturnType<typeof testLogger>;
  write(key: string, text: string): Promise<void>;
  read(key: string): Promise<string | null>;
  remove(key: string): Promise<void>;
}

export interface NetFaults {
  offline: boolean;
  /** Called before each request; a teammate may write here (the 412 storm). */
  before?: (method: string, url: string) => Promise<void>;
  /** The next `n` PUTs are applied by the server but their answers are lost. */
  dropPutAnswers: number;
  /** The next `n` PUTs fail before reaching the server. */
  resetPutsBeforeApply: number;
  /** Rewrites every ETag header the server sends: weak (`W/"…"`) or without its quotes (a misbehaving proxy). */
  etagForm?: 'weak' | 'unquoted';
}

export async function makeDevice(
  name: string,
  serverUrl: string,
  token: string,
  repo: string,
  overrides: Partial<TeamSyncEngineOptions> = {},
): Promise<Device> {
  const vault = await tempDir(`strata-sync-${name}-`);
  const teamDir = path.join(vault, 'projects', 'p', 'memory', 'team');
  await fs.mkdir(teamDir, { recursive: true });
  const stateDir = teamSyncStateDir(vault, repo);
  const requests: Device['requests'] = [];
  const sleeps: number[] = [];
  const net: NetFaults = { offline: false, dropPutAnswers: 0, resetPutsBeforeApply: 0 };
  const wrapped: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    const url = String(input);
    requests.push({ method, url, body: typeof init?.body === 'string' ? init.body : '' });
    await net.before?.(method, url);
    if (net.offline) throw new TypeError('fetch failed (offline)');
    if (method === 'PUT' && net.resetPutsBeforeApply > 0) {
      net.resetPutsBeforeApply--;
      throw new TypeError('fetch failed (connection reset)');
    }
    let response = await fetch(input, init);
    if (method === 'PUT' && net.dropPutAnswers > 0) {
      net.dropPutAnswers--;
      await response.arrayBuffer();
      throw new TypeError('fetch failed (answer lost)');
    }
    const etag = response.headers.get('etag');
    if (net.etagForm && etag) {
      const headers = new Headers(response.headers);
      const bare = etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
      headers.set('etag', net.etagForm === 'weak' ? `W/"${bare}"` : bare);
      const body = response.status === 304 ? null : await response.arrayBuffer();
      response = new Response(body, { status: response.status, statusText: response.statusText, headers });
    }
    return response;
  };
  const log = testLogger();
  const engine = new TeamSyncEngine({
    repo,
    teamDir,
    stateDir,
    api: new TeamApi({ serverUrl, repo, fetch: wrapped, getToken: async () => token }),
    scan: (text) => scanText(text),
    config: defaultMemoryConfig.teamSync,
    clock: { now: () => Date.now() },
    logger: log.logger,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  const file = (key: string) => path.join(teamDir, ...key.split('/'));
  return {
    name,
    vault,
    teamDir,
    stateDir,
    engine,
    requests,
    sleeps,
    net,
    log,
    async write(key, text) {
      await fs.mkdir(path.dirname(file(key)), { recursive: true });
      await fs.writeFile(file(key), text);
    },
    read: (key) => fs.readFile(file(key), 'utf8').catch(() => null),
    remove: (key) => fs.rm(file(key), { force: true }),
  };
}

/** A fake GitHub token the scanner recognises, fresh per test, so a leak cannot hide behind a fixture. */
export function canarySecret(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return `ghp_${[...randomBytes(36)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/** Every text reachable after a run: local files, conflict copies, the server's entries. */
async function reachableTexts(devices: Device[], serverEntries: Record<string, string>): Promise<Set<string>> {
  const out = new Set(Object.values(serverEntries));
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && !entry.name.startsWith('.')) out.add(await fs.readFile(full, 'utf8'));
    }
  };
  for (const d of devices) {
    await walk(d.teamDir);
    await walk(path.join(d.stateDir, 'conflicts'));
  }
  return out;
}

/**
 * The oracle of docs/sync-protocol.md#a-client-that-loses-nothing: every save a user made is recorded, and the last save of each
 * device and key must survive somewhere reachable.
 */
export class SaveLedger {
  private readonly last = new Map<string, string>();

  async save(device: Device, key: string, text: string): Promise<void> {
    this.record(device, key, text);
    await device.write(key, text);
  }

  /** A save the test makes itself (from inside a fault seam, where it must be synchronous). */
  record(device: Device, key: string, text: string): void {
    this.last.set(`${device.name}\0${key}`, text);
  }

  async assertNothingLost(devices: Device[], serverEntries: Record<string, string>): Promise<void> {
    const reachable = await reachableTexts(devices, serverEntries);
    const lost = [...this.last].filter(([, text]) => !reachable.has(text)).map(([id]) => id.replace('\0', ':'));
    expect(lost).toEqual([]);
  }
}
