/**
 * The one SQL surface both storage back ends implement, so every query is written once. SQL uses `?`
 * placeholders (rewritten to `$n` for PostgreSQL) and only syntax both dialects share, plus
 * `lockClause` where PostgreSQL needs `FOR UPDATE`.
 */
/** A parameter; bytes bind as a BLOB (SQLite) or BYTEA (PostgreSQL). */
export type SqlValue = string | number | null | Uint8Array;
export type Row = Record<string, unknown>;

/** Statements inside one transaction, or outside any. */
export interface SqlExecutor {
  query<T extends Row = Row>(sql: string, params?: SqlValue[]): Promise<T[]>;
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, params?: SqlValue[]): Promise<number>;
}

/** A database: statements, transactions, migrations' dialect, and close. */
export interface SqlDb extends SqlExecutor {
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `body` in one transaction that takes the write lock before its first read (SQLite
   * `BEGIN IMMEDIATE`; PostgreSQL rows locked with `FOR UPDATE`), committing when it resolves and
   * rolling back when it throws.
   */
  transaction<T>(body: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** ` FOR UPDATE` on PostgreSQL, empty on SQLite (whose transaction already holds the write lock). */
  readonly lockClause: string;
  close(): Promise<void>;
}

/** Where a database lives, parsed from `--db`. */
export type DbLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Parses `sqlite:<file>`, a bare file path, or `postgres://…` / `postgresql://…`. */
export function parseDbUrl(url: string): DbLocation | null {
  const trimmed = url.trim();
  if (/^postgres(ql)?:\/\//.test(trimmed)) return { kind: 'postgres', url: trimmed };
  if (trimmed.startsWith('sqlite:')) {
    const file = trimmed.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return file ? { kind: 'sqlite', file } : null;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || trimmed === '') return null;
  return { kind: 'sqlite', file: trimmed };
}
