import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Sequencer } from '../../common/async/sequencer.js';
import type { Row, SqlDb, SqlExecutor, SqlValue } from './sql-db.js';

/**
 * SQLite through better-sqlite3, loaded lazily so the desktop app never loads the native module
 * (docs/architecture.md#how-it-is-tested). better-sqlite3 is synchronous on one connection, so statements from concurrent
 * requests would interleave inside an async transaction: every top-level operation goes through one
 * queue. Several processes on one file serialize on SQLite's own lock (`BEGIN IMMEDIATE` + busy wait).
 */
export async function openSqliteDb(file: string): Promise<SqlDb> {
  const { default: Database } = await import('better-sqlite3');
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // The busy wait first: switching a new file to WAL needs its lock too, and a second process starting at
  // the same moment (migrating it) may hold that for a while on a loaded machine.
  const db = new Database(file, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  return new SqliteDb(db);
}

class SqliteDb implements SqlDb {
  readonly dialect = 'sqlite' as const;
  readonly lockClause = '';
  private readonly queue = new Sequencer();
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly direct: SqlExecutor;

  constructor(private readonly db: BetterSqlite3.Database) {
    this.direct = {
      query: async <T extends Row>(sql: string, params: SqlValue[] = []) => this.prepare(sql).all(...params) as T[],
      run: async (sql: string, params: SqlValue[] = []) => this.prepare(sql).run(...params).changes,
    };
  }

  private prepare(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  query<T extends Row = Row>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return this.queue.run(() => this.direct.query<T>(sql, params));
  }

  run(sql: string, params?: SqlValue[]): Promise<number> {
    return this.queue.run(() => this.direct.run(sql, params));
  }

  transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await body(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.queue.run(async () => this.db.close());
  }
}
