import { migrate } from './migrations.js';
import { parseDbUrl, type SqlDb } from './sql-db.js';

/**
 * Opens the database named by `--db` (SQLite file or PostgreSQL URL) and migrates it. The drivers are
 * imported here, lazily, so nothing outside the server ever loads them.
 */
export async function openDatabase(url: string): Promise<SqlDb> {
  const db = await openUnmigrated(url);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** The database without migrating it (schema upgrade tests). */
export async function openUnmigrated(url: string): Promise<SqlDb> {
  const location = parseDbUrl(url);
  if (!location) throw new Error("--db must be sqlite:<file> or postgres://… (the value given is neither)");
  return location.kind === 'sqlite'
    ? (await import('./sqlite-db.js')).openSqliteDb(location.file)
    : (await import('./postgres-db.js')).openPostgresDb(location.url);
}
