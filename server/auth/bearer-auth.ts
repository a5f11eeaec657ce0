import type { Clock } from '../../common/ports.js';
import type { AuthStore } from '../storage/auth-store.js';
import { hashSecret } from '../server-crypto.js';

/** Who a request acts as. */
export interface Caller {
  userId: string;
  username: string;
  tokenId: string;
}

export type BearerResult = { ok: true; caller: Caller } | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'revoked' };

/** The token of an `Authorization: Bearer …` header (RFC 6750 §2.1), or null. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

/**
 * Checks an OAuth access token or a personal access token against the database on every request, so a
 * revocation on one server instance holds on all of them at once.
 */
export async function authenticateBearer(store: AuthStore, clock: Clock, token: string | null): Promise<BearerResult> {
  if (!token) return { ok: false, reason: 'missing' };
  const row = await store.findAccessToken(hashSecret(token));
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.revokedAt !== null) return { ok: false, reason: 'revoked' };
  if (row.expiresAt !== null && row.expiresAt <= clock.now()) return { ok: false, reason: 'expired' };
  return { ok: true, caller: { userId: row.userId, username: row.username, tokenId: row.id } };
}
