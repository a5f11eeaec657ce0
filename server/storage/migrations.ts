import type { SqlDb } from './sql-db.js';

type Dialect = SqlDb['dialect'];

/**
 * The schema, as numbered migrations of single statements: one list for both dialects, or one list
 * each. Times are epoch milliseconds in BIGINT columns. Secrets (tokens, codes) are stored only as
 * SHA-256 hashes.
 */
const migrations: { version: number; statements: string[] | Record<Dialect, string[]> }[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE users (
        id TEXT PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        created_at BIGINT NOT NULL)`,
      `CREATE TABLE memberships (
        user_id TEXT NOT NULL REFERENCES users(id),
        repo TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (user_id, repo))`,
      `CREATE TABLE access_tokens (
        token_hash TEXT PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL REFERENCES users(id),
        kind TEXT NOT NULL,
        family_id TEXT,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        revoked_at BIGINT)`,
      `CREATE INDEX access_tokens_family ON access_tokens (family_id)`,
      `CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        family_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        rotated_at BIGINT,
        revoked_at BIGINT)`,
      `CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)`,
      `CREATE TABLE auth_codes (
        code_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users(id),
        redirect_uri TEXT NOT NULL,
        code_challenge TEXT NOT NULL,
        code_challenge_method TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at BIGINT,
        family_id TEXT)`,
      `CREATE TABLE team_repos (
        repo TEXT PRIMARY KEY,
        version BIGINT NOT NULL,
        checksum TEXT NOT NULL,
        last_modified BIGINT NOT NULL,
        entry_count BIGINT NOT NULL)`,
      `CREATE TABLE team_entries (
        repo TEXT NOT NULL,
        key TEXT NOT NULL,
        content TEXT,
        checksum TEXT NOT NULL,
        deleted_at BIGINT,
        PRIMARY KEY (repo, key))`,
    ],
  },
  {
    // Entries as their exact UTF-8 bytes (docs/sync-protocol.md allows any text, U+0000 included, which PostgreSQL
    // text cannot hold), and rate-limit windows shared by every instance on the database. The windows
    // are UNLOGGED on PostgreSQL: no WAL write per request, and losing them in a crash is harmless.
    version: 2,
    statements: {
      sqlite: [
        `UPDATE team_entries SET content = CAST(content AS BLOB) WHERE typeof(content) = 'text'`,
        `CREATE TABLE rate_windows (bucket TEXT PRIMARY KEY, window_start BIGINT NOT NULL, hits BIGINT NOT NULL)`,
      ],
      postgres: [
        `ALTER TABLE team_entries ALTER COLUMN content TYPE BYTEA USING convert_to(content, 'UTF8')`,
        `CREATE UNLOGGED TABLE rate_windows (bucket TEXT PRIMARY KEY, window_start BIGINT NOT NULL, hits BIGINT NOT NULL)`,
      ],
    },
  },
  {
    // Sign-in attempts per username and per client address (sign-in-throttle.ts), shared by every
    // instance. A logged table even on PostgreSQL, unlike rate_windows: it is written only per sign-in
    // attempt, and a crash or a failover must not hand a password guesser fresh attempts.
    version: 3,
    statements: [`CREATE TABLE signin_attempts (bucket TEXT PRIMARY KEY, window_start BIGINT NOT NULL, attempts BIGINT NOT NULL)`],
  },
  {
    // Who last changed each entry and when, so a teammate's conflict resolver can say whose edit it is.
    version: 4,
    statements: [`ALTER TABLE team_entries ADD COLUMN updated_by TEXT`, `ALTER TABLE team_entries ADD COLUMN updated_at BIGINT`],
  },
];

/** The newest schema version this build knows. */
export const schemaVersion = migrations[migrations.length - 1]!.version;

/**
 * Brings the schema up to date, once even when several server processes start together on one
 * PostgreSQL (a transaction-scoped advisory lock; SQLite's `BEGIN IMMEDIATE` serializes the same way).
 * A database newer than this build is refused rather than misread. `upTo` stops early (tests of upgrades).
 */
export async function migrate(db: SqlDb, upTo: number = schemaVersion): Promise<void> {
  await db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7411007)');
    await tx.run('CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => Number(r.version)));
    const newest = Math.max(0, ...applied);
    if (newest > schemaVersion) {
      throw new Error(`the database schema (version ${newest}) is newer than this server (version ${schemaVersion}); upgrade the server`);
    }
    for (const migration of migrations) {
      if (applied.has(migration.version) || migration.version > upTo) continue;
      const statements = Array.isArray(migration.statements) ? migration.statements : migration.statements[db.dialect];
      for (const statement of statements) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [migration.version, Date.now()]);
    }
  });
}
