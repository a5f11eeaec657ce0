import { KeySpace, repositoryChecksum, strongMatch, weakMatch, type EntityTag, type Sha256Hex, entryChecksum } from '../../common/team-memory/index.js';
import type { SqlDb } from './sql-db.js';

/** A repository's current version; `version` 0 is never returned (it means "no memory yet"). */
export interface RepoHead {
  version: number;
  checksum: string;
  lastModified: number;
}

/** Everything `GET` answers, read in one statement so head and entries agree. */
export interface RepoSnapshot extends RepoHead {
  entries: Map<string, { content: string | null; checksum: string }>;
  tombstones: Map<string, { deletedAt: number; checksum: string }>;
}

/** A `PUT` as the store applies it (already validated: keys, sizes, JSON shape). */
export interface PutRequest {
  changes: [string, string | null][];
  /** Parsed If-Match, or null when absent. */
  ifMatch: '*' | EntityTag[] | null;
  /** Parsed If-None-Match, or null when absent: `*` creates only, a list refuses to overwrite those versions. */
  ifNoneMatch: '*' | EntityTag[] | null;
  now: number;
  /** The username that sent the PUT, recorded per entry it changes. */
  author: string;
  maxEntries: number;
  tombstoneMs: number;
  maxTombstones: number;
  maxRepoBytes: number;
}

export type PutOutcome =
  | { kind: 'ok'; checksum: string; version: number }
  | { kind: 'precondition_failed'; current: string | null }
  | { kind: 'precondition_required'; current: string }
  | { kind: 'too_many_entries'; maxEntries: number; receivedEntries: number }
  | { kind: 'invalid_key'; key: string; reason: string }
  | { kind: 'repo_too_large'; maxRepoBytes: number; receivedBytes: number };

/** Content as stored: UTF-8 bytes (a string only in a row no migration has touched). */
function decodeContent(content: Uint8Array | string | null): string | null {
  if (content === null || typeof content === 'string') return content;
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
}

type EntryRow = {
  key: string;
  checksum: string;
  deleted_at: number | null;
  bytes: number | null;
};

/**
 * Team memory rows: `team_repos` (version, checksum) and `team_entries` (one row a key; a tombstone is
 * a row with `deleted_at`). The ETag check and the write are one transaction (docs/sync-protocol.md).
 */
export class MemoryStore {
  constructor(
    private readonly db: SqlDb,
    private readonly sha256: Sha256Hex,
  ) {}

  /** The cheap read behind `If-None-Match` → 304. */
  async head(repo: string): Promise<RepoHead | null> {
    const rows = await this.db.query<{ version: number; checksum: string; last_modified: number }>(
      'SELECT version, checksum, last_modified FROM team_repos WHERE repo = ? AND version > 0',
      [repo],
    );
    const row = rows[0];
    return row ? { version: Number(row.version), checksum: row.checksum, lastModified: Number(row.last_modified) } : null;
  }

  /** Who last changed one entry (or deleted it) and when; null for an unknown key or one from before authors were kept. */
  async entryInfo(repo: string, key: string): Promise<{ checksum: string; deleted: boolean; updatedBy: string | null; updatedAt: number | null } | null> {
    const rows = await this.db.query<{ checksum: string; deleted_at: number | null; updated_by: string | null; updated_at: number | null }>(
      'SELECT checksum, deleted_at, updated_by, updated_at FROM team_entries WHERE repo = ? AND key = ?',
      [repo, key],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      checksum: row.checksum,
      deleted: row.deleted_at !== null,
      updatedBy: row.updated_by,
      updatedAt: row.updated_at === null ? null : Number(row.updated_at),
    };
  }

  /** UTF-8 bytes of the repository's live entries, counted as a PUT counts them against the byte cap. */
  async contentBytes(repo: string): Promise<number> {
    const rows = await this.db.query<{ bytes: number | string | null }>(
      'SELECT SUM(length(content)) AS bytes FROM team_entries WHERE repo = ? AND deleted_at IS NULL',
      [repo],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  /** The whole repository; tombstones older than `tombstoneMs` are left out. */
  async snapshot(repo: string, withContent: boolean, now: number, tombstoneMs: number): Promise<RepoSnapshot | null> {
    const rows = await this.db.query<{
      version: number;
      repo_checksum: string;
      last_modified: number;
      key: string | null;
      content: Uint8Array | string | null;
      checksum: string | null;
      deleted_at: number | null;
    }>(
      `SELECT r.version, r.checksum AS repo_checksum, r.last_modified, e.key, ${withContent ? 'e.content' : 'NULL AS content'},
              e.checksum, e.deleted_at
         FROM team_repos r LEFT JOIN team_entries e ON e.repo = r.repo
        WHERE r.repo = ? AND r.version > 0`,
      [repo],
    );
    const first = rows[0];
    if (!first) return null;
    const snapshot: RepoSnapshot = {
      version: Number(first.version),
      checksum: first.repo_checksum,
      lastModified: Number(first.last_modified),
      entries: new Map(),
      tombstones: new Map(),
    };
    for (const row of rows) {
      if (row.key === null || row.checksum === null) continue;
      if (row.deleted_at === null) snapshot.entries.set(row.key, { content: decodeContent(row.content), checksum: row.checksum });
      else if (now - Number(row.deleted_at) <= tombstoneMs) {
        snapshot.tombstones.set(row.key, { deletedAt: Number(row.deleted_at), checksum: row.checksum });
      }
    }
    return snapshot;
  }

  /** Applies an upsert under the repository's row lock; nothing is written unless the outcome is ok. */
  async put(repo: string, request: PutRequest): Promise<PutOutcome> {
    return this.db.transaction(async (tx) => {
      // The row must exist to be locked: two first PUTs then queue on it instead of racing an INSERT.
      await tx.run(
        'INSERT INTO team_repos (repo, version, checksum, last_modified, entry_count) VALUES (?, 0, ?, 0, 0) ON CONFLICT (repo) DO NOTHING',
        [repo, ''],
      );
      const [head] = await tx.query<{ version: number; checksum: string }>(
        `SELECT version, checksum FROM team_repos WHERE repo = ?${this.db.lockClause}`,
        [repo],
      );
      const version = Number(head?.version ?? 0);
      const current = version > 0 ? head!.checksum : null;
      // RFC 9110 §13.2.2: If-Match first (strong), then If-None-Match (weak); a false one is 412.
      if (request.ifMatch !== null && (current === null || !strongMatch(request.ifMatch, current))) {
        return { kind: 'precondition_failed', current };
      }
      if (request.ifNoneMatch !== null && current !== null && weakMatch(request.ifNoneMatch, current)) {
        return { kind: 'precondition_failed', current };
      }
      if (request.ifMatch === null && current !== null) {
        // RFC 6585 §3: an unconditional write to existing memory would risk a lost update.
        return { kind: 'precondition_required', current };
      }
      const rows = await tx.query<EntryRow>('SELECT key, checksum, deleted_at, length(content) AS bytes FROM team_entries WHERE repo = ?', [repo]);
      const live = new Map<string, string>();
      const sizes = new Map<string, number>();
      for (const row of rows) {
        if (row.deleted_at !== null) continue;
        live.set(row.key, row.checksum);
        sizes.set(row.key, Number(row.bytes ?? 0));
      }
      const upserts: [string, Buffer, string][] = [];
      const deletes: string[] = [];
      for (const [key, text] of request.changes) if (text === null && live.delete(key)) deletes.push(key);
      // Deletions first, so a batch may rename `A.md` to `a.md`; then no key may collide with another
      // as a case-insensitive file system or a folder would make them collide (common/team-memory/key-space).
      const space = new KeySpace(live.keys());
      for (const [key, text] of request.changes) {
        if (text === null || space.has(key)) continue;
        const reason = space.problem(key);
        if (reason) return { kind: 'invalid_key', key, reason };
        space.add(key);
      }
      for (const [key, text] of request.changes) {
        if (text !== null) {
          const sum = entryChecksum(text, this.sha256);
          live.set(key, sum);
          upserts.push([key, Buffer.from(text, 'utf8'), sum]);
        }
      }
      if (live.size > request.maxEntries) {
        return { kind: 'too_many_entries', maxEntries: request.maxEntries, receivedEntries: live.size };
      }
      for (const key of deletes) sizes.delete(key);
      for (const [key, bytes] of upserts) sizes.set(key, bytes.byteLength);
      let total = 0;
      for (const size of sizes.values()) total += size;
      if (total > request.maxRepoBytes && upserts.length > 0) {
        return { kind: 'repo_too_large', maxRepoBytes: request.maxRepoBytes, receivedBytes: total };
      }
      for (const [key, bytes, sum] of upserts) {
        await tx.run(
          `INSERT INTO team_entries (repo, key, content, checksum, deleted_at, updated_by, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?)
           ON CONFLICT (repo, key) DO UPDATE SET content = excluded.content, checksum = excluded.checksum, deleted_at = NULL,
             updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
          [repo, key, bytes, sum, request.author, request.now],
        );
      }
      for (const key of deletes) {
        await tx.run('UPDATE team_entries SET content = NULL, deleted_at = ?, updated_by = ?, updated_at = ? WHERE repo = ? AND key = ?', [
          request.now,
          request.author,
          request.now,
          repo,
          key,
        ]);
      }
      await tx.run('DELETE FROM team_entries WHERE repo = ? AND deleted_at IS NOT NULL AND deleted_at < ?', [
        repo,
        request.now - request.tombstoneMs,
      ]);
      await this.compactTombstones(tx, repo, rows, deletes, upserts, request);
      const checksum = repositoryChecksum(live, this.sha256);
      await tx.run('UPDATE team_repos SET version = ?, checksum = ?, last_modified = ?, entry_count = ? WHERE repo = ?', [
        version + 1,
        checksum,
        request.now,
        live.size,
        repo,
      ]);
      return { kind: 'ok', checksum, version: version + 1 };
    });
  }

  /** Keeps the newest `maxTombstones` tombstones (this PUT's deletions count as newest). */
  private async compactTombstones(
    tx: Pick<SqlDb, 'run'>,
    repo: string,
    rows: EntryRow[],
    deletes: string[],
    upserts: [string, Buffer, string][],
    request: PutRequest,
  ): Promise<void> {
    const revived = new Set(upserts.map(([key]) => key));
    const older = rows
      .filter((row) => row.deleted_at !== null && Number(row.deleted_at) >= request.now - request.tombstoneMs && !revived.has(row.key))
      .sort((a, b) => Number(b.deleted_at) - Number(a.deleted_at) || a.key.localeCompare(b.key));
    const keep = Math.max(0, request.maxTombstones - deletes.length);
    const dropped = deletes.length > request.maxTombstones ? deletes.slice(request.maxTombstones) : [];
    for (const key of [...older.slice(keep).map((row) => row.key), ...dropped]) {
      await tx.run('DELETE FROM team_entries WHERE repo = ? AND key = ? AND deleted_at IS NOT NULL', [repo, key]);
    }
  }
}
