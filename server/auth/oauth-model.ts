import type { AuthorizationCode, AuthorizationCodeModel, Client, RefreshToken, RefreshTokenModel, Token, User } from '@node-oauth/oauth2-server';
import type { Clock } from '../../common/ports.js';
import type { AuthStore } from '../storage/auth-store.js';
import { hashSecret, newId, newSecret } from '../server-crypto.js';
import { desktopClientId, type AuthLifetimes } from '../server-options.js';
import { isLoopbackRedirect } from './redirect-uri.js';

/** The user object handed to the OAuth library; `familyId` threads a refresh chain through rotation. */
export interface OAuthUser extends User {
  id: string;
  username: string;
  familyId?: string;
}

export const desktopClient: Client = {
  id: desktopClientId,
  grants: ['authorization_code', 'refresh_token'],
  // The library wants a non-empty list; real validation is `validateRedirectUri` (any loopback port).
  redirectUris: ['http://127.0.0.1:1/callback'],
};

/**
 * The @node-oauth/oauth2-server model over our tables. Expiry is judged with the injected clock here
 * (the library compares against the real time, so objects handed back carry real-time dates that only
 * pass its own checks). Rotation: every refresh marks its token rotated; presenting a rotated one again
 * revokes its whole family (RFC 9700 §4.14.2 refresh token reuse detection).
 */
export function createOAuthModel(store: AuthStore, clock: Clock, lifetimes: AuthLifetimes): AuthorizationCodeModel & RefreshTokenModel {
  const later = () => new Date(Date.now() + 60_000);
  return {
    async getClient(clientId: string, clientSecret: string | null) {
      // A public client: presenting a secret is a misconfigured or impostor client.
      return clientId === desktopClientId && !clientSecret ? desktopClient : false;
    },
    async validateRedirectUri(redirectUri: string) {
      return isLoopbackRedirect(redirectUri);
    },
    async generateAccessToken() {
      return newSecret('sat_');
    },
    async generateRefreshToken() {
      return newSecret('srt_');
    },
    async generateAuthorizationCode() {
      return newSecret('sac_');
    },
    async saveAuthorizationCode(code, _client, user) {
      const u = user as OAuthUser;
      await store.saveAuthCode(
        hashSecret(code.authorizationCode),
        {
          userId: u.id,
          redirectUri: code.redirectUri,
          codeChallenge: code.codeChallenge ?? '',
          codeChallengeMethod: code.codeChallengeMethod ?? '',
          expiresAt: clock.now() + lifetimes.authCodeMs,
        },
        clock.now(),
      );
      return { ...code, client: desktopClient, user };
    },
    async getAuthorizationCode(authorizationCode: string): Promise<AuthorizationCode | false> {
      const hash = hashSecret(authorizationCode);
      const row = await store.findAuthCode(hash);
      if (!row) return false;
      if (row.usedAt !== null) {
        // RFC 6749 §4.1.2: a replayed code revokes what it granted.
        if (row.familyId) await store.revokeFamily(row.familyId, clock.now());
        return false;
      }
      if (row.expiresAt <= clock.now() || !row.codeChallenge || row.codeChallengeMethod !== 'S256') return false;
      return {
        authorizationCode,
        expiresAt: later(),
        redirectUri: row.redirectUri,
        codeChallenge: row.codeChallenge,
        codeChallengeMethod: row.codeChallengeMethod,
        client: desktopClient,
        user: { id: row.userId, username: row.username } satisfies OAuthUser,
      };
    },
    async revokeAuthorizationCode(code) {
      return store.useAuthCode(hashSecret(code.authorizationCode), clock.now());
    },
    async saveToken(token, client, user): Promise<Token> {
      const u = user as OAuthUser;
      const now = clock.now();
      const familyId = u.familyId ?? newId('fam_');
      await store.saveAccessToken(
        hashSecret(token.accessToken),
        { id: newId('at_'), userId: u.id, kind: 'oauth', familyId, expiresAt: now + lifetimes.accessTokenMs },
        now,
      );
      if (token.refreshToken) {
        await store.saveRefreshToken(hashSecret(token.refreshToken), u.id, familyId, now + lifetimes.refreshTokenMs, now);
      }
      if (typeof token.authorizationCode === 'string') await store.setAuthCodeFamily(hashSecret(token.authorizationCode), familyId);
      return { ...token, client, user: { id: u.id, username: u.username } };
    },
    async getAccessToken() {
      // API requests are authenticated by bearer-auth.ts, not through the library.
      return false;
    },
    async verifyScope() {
      return true;
    },
    async getRefreshToken(refreshToken: string): Promise<RefreshToken | false> {
      const row = await store.findRefreshToken(hashSecret(refreshToken));
      if (!row || row.revokedAt !== null) return false;
      if (row.rotatedAt !== null) {
        await store.revokeFamily(row.familyId, clock.now());
        return false;
      }
      if (row.expiresAt <= clock.now()) return false;
      return {
        refreshToken,
        client: desktopClient,
        user: { id: row.userId, username: row.username, familyId: row.familyId } satisfies OAuthUser,
      };
    },
    async revokeToken(token) {
      return store.rotateRefreshToken(hashSecret(token.refreshToken), clock.now());
    },
  };
}
