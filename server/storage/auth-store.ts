import type { SqlDb, SqlExecutor } from './sql-db.js';

/** A user account; `passwordHash` is null for an account that signs in only with personal tokens. */
export interface UserRow {
  id: string;
  username: string;
  passwordHash: string | null;
}

/** An access token (OAuth or personal), found by the hash of its secret. */
export interface AccessTokenRow {
  id: string;
  userId: string;
  username: string;
  kind: 'oauth' | 'pat';
  familyId: string | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** A refresh token of a rotation family (docs/sync-protocol.md: reuse of a rotated one revokes the family). */
export interface RefreshTokenRow {
  userId: string;
  username: string;
  familyId: string;
  expiresAt: number;
  rotatedAt: number | null;
  revokedAt: number | null;
}

/** An authorization code bound to its redirect URI and PKCE challenge. */
export interface AuthCodeRow {
  userId: string;
  username: string;
  redirectUri: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  expiresAt: number;
  usedAt: number | null;
  familyId: string | null;
}

/** How many rows of each kind a cleanup removed. */
export interface EndedRemoved {
  accessTokens: number;
  refreshTokens: number;
  authCodes: number;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Users, memberships and token rows. Only hashes of secrets are stored. */
export class AuthStore {
  constructor(private readonly db: SqlDb) {}

  async createUser(id: string, username: string, passwordHash: string | null, now: number): Promise<boolean> {
    const changed = await this.db.run(
      'INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (username) DO NOTHING',
      [id, username, passwordHash, now],
    );
    return changed > 0;
  }

  async findUser(username: string): Promise<UserRow | null> {
    const [row] = await this.db.query<{ id: string; username: string; password_hash: string | null }>(
      'SELECT id, username, password_hash FROM users WHERE username = ?',
      [username],
    );
    return row ? { id: row.id, username: row.username, passwordHash: row.password_hash } : null;
  }

  async grant(userId: string, repo: string, now: number): Promise<void> {
    await this.db.run('INSERT INTO memberships (user_id, repo, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id, repo) DO NOTHING', [
      userId,
      repo,
      now,
    ]);
  }

  async isMember(userId: string, repo: string): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 AS one FROM memberships WHERE user_id = ? AND repo = ?', [userId, repo]);
    return rows.length > 0;
  }

  async saveAccessToken(hash: string, row: Omit<AccessTokenRow, 'username' | 'revokedAt'>, now: number, tx: SqlExecutor = this.db): Promise<void> {
    await tx.run(
      'INSERT INTO access_tokens (token_hash, id, user_id, kind, family_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [hash, row.id, row.userId, row.kind, row.familyId, now, row.expiresAt],
    );
  }

  async findAccessToken(hash: string): Promise<AccessTokenRow | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      `SELECT t.id, t.user_id, u.username, t.kind, t.family_id, t.expires_at, t.revoked_at
         FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`,
      [hash],
    );
    if (!row) return null;
    return {
      id: String(row.id),
      userId: String(row.user_id),
      username: String(row.username),
      kind: row.kind === 'pat' ? 'pat' : 'oauth',
      familyId: row.family_id === null ? null : String(row.family_id),
      expiresAt: num(row.expires_at),
      revokedAt: num(row.revoked_at),
    };
  }

  /** Revokes a personal (or any) access token by its public id; false when there is none. */
  async revokeAccessTokenById(id: string, now: number): Promise<boolean> {
    const [row] = await this.db.query('SELECT id FROM access_tokens WHERE id = ?', [id]);
    if (!row) return false;
    await this.db.run('UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id]);
    return true;
  }

  async revokeAccessTokenByHash(hash: string, now: number): Promise<AccessTokenRow | null> {
    const row = await this.findAccessToken(hash);
    if (row) await this.db.run('UPDATE access_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL', [now, hash]);
    return row;
  }

  async saveRefreshToken(hash: string, userId: string, familyId: string, expiresAt: number, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO refresh_tokens (token_hash, user_id, family_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      [hash, userId, familyId, now, expiresAt],
    );
  }

  async findRefreshToken(hash: string): Promise<RefreshTokenRow | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      `SELECT r.user_id, u.username, r.family_id, r.expires_at, r.rotated_at, r.revoked_at
         FROM refresh_tokens r JOIN users u ON u.id = r.user_id WHERE r.token_hash = ?`,
      [hash],
    );
    if (!row) return null;
    return {
      userId: String(row.user_id),
      username: String(row.username),
      familyId: String(row.family_id),
      expiresAt: Number(row.expires_at),
      rotatedAt: num(row.rotated_at),
      revokedAt: num(row.revoked_at),
    };
  }

  /** Marks a refresh token used; false when it already was (a concurrent refresh won). */
  async rotateRefreshToken(hash: string, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL', [now, hash])) > 0;
  }

  /** Revokes every refresh and access token of one sign-in (reuse detection, RFC 7009 revocation). */
  async revokeFamily(familyId: string, now: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', [now, familyId]);
      await tx.run('UPDATE access_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', [now, familyId]);
    });
  }

  async saveAuthCode(hash: string, code: Omit<AuthCodeRow, 'username' | 'usedAt' | 'familyId'>, now: number): Promise<void> {
    await this.db.run(
      `INSERT INTO auth_codes (code_hash, user_id, redirect_uri, code_challenge, code_challenge_method, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [hash, code.userId, code.redirectUri, code.codeChallenge, code.codeChallengeMethod, now, code.expiresAt],
    );
  }

  async findAuthCode(hash: string): Promise<AuthCodeRow | null> {
    const [row] = await this.db.query<Record<string, unknown>>(
      `SELECT c.user_id, u.username, c.redirect_uri, c.code_challenge, c.code_challenge_method, c.expires_at, c.used_at, c.family_id
         FROM auth_codes c JOIN users u ON u.id = c.user_id WHERE c.code_hash = ?`,
      [hash],
    );
    if (!row) return null;
    return {
      userId: String(row.user_id),
      username: String(row.username),
      redirectUri: String(row.redirect_uri),
      codeChallenge: String(row.code_challenge),
      codeChallengeMethod: String(row.code_challenge_method),
      expiresAt: Number(row.expires_at),
      usedAt: num(row.used_at),
      familyId: row.family_id === null ? null : String(row.family_id),
    };
  }

  /** Consumes a code; false when it was already used (a replay). */
  async useAuthCode(hash: string, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE auth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [now, hash])) > 0;
  }

  async setAuthCodeFamily(hash: string, familyId: string): Promise<void> {
    await this.db.run('UPDATE auth_codes SET family_id = ? WHERE code_hash = ?', [familyId, hash]);
  }

  /**
   * Deletes what ended before `cutoff`: access tokens that expired or were revoked; refresh tokens a
   * whole family at a time; authorization codes. Returns how many rows of each went.
   *
   * A refresh token that was rotated must outlive its own use: presenting it again is how reuse is
   * detected, and it revokes the family (oauth-model.ts `getRefreshToken`, RFC 9700 §4.14.2), even
   * after that token's own expiry. So no row of a family goes while any token of the family is still
   * usable (not expired, not revoked) — or ended only after `cutoff`. Once every token of the family has
   * ended there is nothing left to revoke, and an old token presented again is refused as unknown
   * instead of as reused (both `invalid_grant`). A family grows by one row a refresh while it lives and
   * ends at most a refresh-token lifetime after its last refresh.
   *
   * A used code likewise revokes the family it granted when replayed (`getAuthorizationCode`), so it
   * stays while that family has rows; other codes go once expired.
   *
   * Each statement stands alone (none depends on another having run). On PostgreSQL one instance
   * cleans at a time, under a transaction-scoped advisory lock, and the others skip (null), so
   * instances never contend for the same rows. On SQLite every statement takes the write lock on its
   * own: a transaction would hold it across awaits, during which another connection of the process
   * (the admin's, a second server's) would busy-wait on it synchronously, blocking the very thread
   * that is to release it.
   */
  async deleteEnded(cutoff: number): Promise<EndedRemoved | null> {
    if (this.db.dialect === 'sqlite') return this.deleteEndedWith(this.db, cutoff);
    return this.db.transaction(async (tx) => {
      const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(7411008) AS locked');
      return lock?.locked ? this.deleteEndedWith(tx, cutoff) : null;
    });
  }

  private async deleteEndedWith(tx: SqlExecutor, cutoff: number): Promise<EndedRemoved> {
    const accessTokens = await tx.run(
      'DELETE FROM access_tokens WHERE (expires_at IS NOT NULL AND expires_at < ?) OR (revoked_at IS NOT NULL AND revoked_at < ?)',
      [cutoff, cutoff],
    );
    const refreshTokens = await tx.run(
      `DELETE FROM refresh_tokens WHERE NOT EXISTS (
         SELECT 1 FROM refresh_tokens live
          WHERE live.family_id = refresh_tokens.family_id AND live.expires_at >= ? AND (live.revoked_at IS NULL OR live.revoked_at >= ?))`,
      [cutoff, cutoff],
    );
    const authCodes = await tx.run(
      `DELETE FROM auth_codes WHERE expires_at < ?
         AND (family_id IS NULL OR NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = auth_codes.family_id))`,
      [cutoff],
    );
    return { accessTokens, refreshTokens, authCodes };
  }
}
