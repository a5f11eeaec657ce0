import type { Pool, PoolClient } from 'pg';
import type { Row, SqlDb, SqlExecutor, SqlValue } from './sql-db.js';

/** `?` placeholders to PostgreSQL's `$1, $2, …` (our SQL never has `?` inside literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

// BIGINT (OID 20) as a JS number: our values (versions, epoch milliseconds) stay far below 2^53.
const int8 = 20;

/**
 * PostgreSQL through pg, loaded lazily so the desktop app never loads it. Each transaction runs on one
 * pooled connection; callers lock the rows they decide on with `FOR UPDATE`, so several server
 * processes on one database never lose an update.
 */
export async function openPostgresDb(url: string, poolSize = 10): Promise<SqlDb> {
  const pg = (await import('pg')).default;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection must not crash the server; the next query reconnects.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();
  return new PostgresDb(pool);
}

function executor(client: Pool | PoolClient): SqlExecutor {
  return {
    async query<T extends Row>(sql: string, params: SqlValue[] = []) {
      return (await client.query(numbered(sql), params)).rows as T[];
    },
    async run(sql: string, params: SqlValue[] = []) {
      return (await client.query(numbered(sql), params)).rowCount ?? 0;
    },
  };
}

class PostgresDb implements SqlDb {
  readonly dialect = 'postgres' as const;
  readonly lockClause = ' FOR UPDATE';
  private readonly direct: SqlExecutor;

  constructor(private readonly pool: Pool) {
    this.direct = executor(pool);
  }

  query<T extends Row = Row>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return this.direct.query<T>(sql, params);
  }

  run(sql: string, params?: SqlValue[]): Promise<number> {
    return this.direct.run(sql, params);
  }

  async transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await body(executor(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
