import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { silentLogger, systemClock } from '../main/core/ports.js';
import { scanText } from '../main/core/secrets/index.js';
import { TeamApi } from '../main/core/team-sync/team-api.js';
import { TeamSyncEngine } from '../main/core/team-sync/team-sync-engine.js';
import { teamSyncStateDir } from '../main/core/team-sync/team-sync-paths.js';

/** Shared by the two team-sync benches: the real server (SQLite, 10,000 entries, no rate limit) and devices. */
export const REPO = 'bench/team';
export const FILES = 5_000;

export interface BenchServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

/** Null when `server/` is not there (the bench then says it is skipped). */
export async function startBenchServer(root: string): Promise<BenchServer | null> {
  let mod: typeof import('../server/index.js');
  try {
    mod = await import('../server/index.js');
  } catch {
    return null;
  }
  const db = `sqlite:${path.join(root, 'team.db')}`;
  const admin = await mod.TeamAdmin.open(db);
  await admin.addUser('bench', null);
  await admin.grant('bench', REPO);
  const { token } = await admin.createToken('bench', null);
  await admin.close();
  const server = await mod.startTeamServer({ db, port: 0, logger: silentLogger, limits: { maxEntries: 10_000, rateLimitPerMinute: 0 } });
  return { url: server.url, token, close: () => server.close() };
}

/** A device: its own vault and engine; `uploaded` counts PUT body bytes. */
export async function benchDevice(root: string, name: string, server: BenchServer) {
  const vault = path.join(root, name);
  const teamDir = path.join(vault, 'projects', 'bench', 'memory', 'team');
  await fs.mkdir(teamDir, { recursive: true });
  const counter = { uploaded: 0 };
  const counting: typeof fetch = (input, init) => {
    if (init?.method === 'PUT' && typeof init.body === 'string') counter.uploaded += Buffer.byteLength(init.body);
    return fetch(input, init);
  };
  const engine = new TeamSyncEngine({
    repo: REPO,
    teamDir,
    stateDir: teamSyncStateDir(vault, REPO),
    api: new TeamApi({ serverUrl: server.url, repo: REPO, fetch: counting, getToken: async () => server.token }),
    scan: (text) => scanText(text),
    config: defaultMemoryConfig.teamSync,
    clock: systemClock,
    logger: silentLogger,
  });
  return { vault, teamDir, engine, counter };
}

/** About 2 KB of plain notes, different per file. */
export function note(i: number, variant = 0): string {
  const line = `- memory ${i} variant ${variant}: the build uses pnpm workspaces and the cache warms in five minutes.\n`;
  return `---\nname: note ${i}\ndescription: bench note ${i}\ntype: project\n---\n${line.repeat(19)}`;
}

export async function writeNotes(teamDir: string): Promise<void> {
  for (let start = 0; start < FILES; start += 250) {
    await Promise.all(
      Array.from({ length: Math.min(250, FILES - start) }, (_, k) => fs.writeFile(path.join(teamDir, `note-${String(start + k).padStart(4, '0')}.md`), note(start + k))),
    );
  }
}

export async function benchRoot(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}
