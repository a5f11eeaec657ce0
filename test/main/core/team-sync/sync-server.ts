import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTeamServer, TeamAdmin, type ServerLimits } from '../../../../server/index.js';
import { openDatabase } from '../../../../server/storage/open-db.js';
import type { Row, SqlDb } from '../../../../server/storage/sql-db.js';
import { testLogger } from '../../../support/test-logger.js';

/** A repository's rows, as a backup would hold them. */
export interface RepoBackup {
  repo: Row[];
  entries: Row[];
}

/**
 * The real team server (`server/`) on loopback for the sync tests, plus a second database connection
 * for what only an operator can do: back a repository up, restore an older backup, lose it entirely
 * (docs/sync-protocol.md#a-client-that-loses-nothing test 7).
 */
export interface SyncServer {
  url: string;
  /** A new user, member of `repos`, with a personal token. */
  member(repos: string[]): Promise<string>;
  backup(repo: string): Promise<RepoBackup>;
  /** Puts a backup back; null = the repository never existed (the server answers 404). */
  restore(repo: string, backup: RepoBackup | null): Promise<void>;
  version(repo: string): Promise<number | null>;
  close(): Promise<void>;
}

let users = 0;

export async function startSyncServer(dbUrl: string, limits: Partial<ServerLimits> = {}): Promise<SyncServer> {
  const logs = testLogger();
  const admin = await TeamAdmin.open(dbUrl);
  const server = await startTeamServer({ db: dbUrl, port: 0, logger: logs.logger, limits: { rateLimitPerMinute: 0, ...limits } });
  const db: SqlDb = await openDatabase(dbUrl);
  const insert = async (table: string, row: Row) => {
    const cols = Object.keys(row);
    await db.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, cols.map((c) => row[c] as string | number | null));
  };
  return {
    url: server.url,
    async member(repos) {
      const name = `sync${++users}_${process.pid}`;
      await admin.addUser(name, null);
      for (const repo of repos) await admin.grant(name, repo);
      return (await admin.createToken(name, null)).token;
    },
    async backup(repo) {
      return {
        repo: await db.query('SELECT * FROM team_repos WHERE repo = ?', [repo]),
        entries: await db.query('SELECT * FROM team_entries WHERE repo = ?', [repo]),
      };
    },
    async restore(repo, backup) {
      await db.run('DELETE FROM team_entries WHERE repo = ?', [repo]);
      await db.run('DELETE FROM team_repos WHERE repo = ?', [repo]);
      for (const row of backup?.repo ?? []) await insert('team_repos', row);
      for (const row of backup?.entries ?? []) await insert('team_entries', row);
    },
    async version(repo) {
      const rows = await db.query<{ version: number | string }>('SELECT version FROM team_repos WHERE repo = ?', [repo]);
      return rows[0] ? Number(rows[0].version) : null;
    },
    async close() {
      await server.close();
      await admin.close();
      await db.close();
      logs.assertNoErrors();
    },
  };
}

/** The server on a fresh SQLite database in its own temp folder, for a whole suite; `close` removes the folder. */
export async function startSqliteSyncServer(prefix: string, limits: Partial<ServerLimits> = {}): Promise<SyncServer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const server = await startSyncServer(`sqlite:${path.join(dir, 'team.db')}`, limits);
  return {
    ...server,
    async close() {
      await server.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
