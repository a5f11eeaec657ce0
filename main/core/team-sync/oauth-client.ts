import * as oauth from 'oauth4webapi';
import { AppFailure } from '../../../common/result.js';
import type { Clock, CredentialStore, Logger } from '../ports.js';
import { discoverAuthServer, type AuthServerMetadata } from './auth-discovery.js';
import { startLoopbackListener } from './loopback-listener.js';

export type { AuthServerMetadata } from './auth-discovery.js';

/** What the credential store keeps per server; never written to files or logs. */
interface StoredTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms. */
  expiresAt: number;
}

export interface TeamAuthOptions {
  serverUrl: string;
  credentials: CredentialStore;
  clock: Clock;
  logger: Logger;
  /** Opens the system browser (Electron `shell.openExternal`; in host mode a new tab). */
  openBrowser: (url: string) => void | Promise<void>;
  fetch?: typeof fetch;
  /** docs/sync-protocol.md: the public client `strata-desktop`. */
  clientId?: string;
  /** docs/memory.md#team-sync: refresh at least 60 s before expiry. */
  refreshLeadMs?: number;
}

// The team server may be plain http on a LAN or loopback (docs/sync-protocol.md), as before this client
// used oauth4webapi; its requests go through the injected fetch.
type RequestOptions = { [oauth.allowInsecureRequests]: true; [oauth.customFetch]: typeof fetch; signal?: AbortSignal };

/**
 * The engine half of team sign-in (docs/memory.md#team-sync): authorization code + PKCE S256 through the system
 * browser and a loopback redirect (RFC 8252 §7.3), tokens in the credential store, refresh before
 * expiry with rotating refresh tokens, sign-out by revocation (RFC 7009).
 */
export class TeamAuth {
  private readonly fetchImpl: typeof fetch;
  private readonly account: string;
  private refreshing: Promise<string | null> | null = null;

  constructor(private readonly o: TeamAuthOptions) {
    this.fetchImpl = o.fetch ?? fetch;
    this.account = `team-server:${new URL(o.serverUrl).origin}`;
  }

  /** RFC 8414: the path-aware metadata URL of the team server URL, its issuer checked (auth-discovery.ts). */
  discover(): Promise<AuthServerMetadata> {
    return discoverAuthServer(this.o.serverUrl, this.fetchImpl);
  }

  async isSignedIn(): Promise<boolean> {
    return (await this.load()) !== null;
  }

  /** Runs the browser flow; resolves once the tokens are stored, rejects with an `AppFailure` saying why not. */
  async signIn(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<void> {
    const meta = await this.discover();
    // RFC 7636 S256 and an RFC 6749 §10.12 state, from oauth4webapi.
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();
    const listener = await startLoopbackListener(state);
    try {
      const authorize = new URL(meta.authorization_endpoint);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: this.clientId,
        redirect_uri: listener.redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state,
      }).toString();
      await this.o.openBrowser(authorize.toString());
      const code = await listener.waitForCode(options.timeoutMs ?? 5 * 60_000, options.signal);
      const as = meta as oauth.AuthorizationServer;
      const tokens = await this.tokenRequest(async (options) => {
        // The listener checked `state`; oauth4webapi checks the callback again (RFC 9207 `iss` when advertised).
        const callback = oauth.validateAuthResponse(as, this.client, new URLSearchParams({ code, state }), state);
        const response = await oauth.authorizationCodeGrantRequest(as, this.client, oauth.None(), callback, listener.redirectUri, verifier, options);
        return oauth.processAuthorizationCodeResponse(as, this.client, response);
      });
      await this.save(tokens);
      this.o.logger.info('signed in to the team server', { server: new URL(this.o.serverUrl).origin });
    } finally {
      await listener.close();
    }
  }

  /** A valid access token, refreshed when it expires within the lead time; null = signed out. */
  async getAccessToken(): Promise<string | null> {
    const tokens = await this.load();
    if (!tokens) return null;
    if (tokens.expiresAt - this.o.clock.now() > (this.o.refreshLeadMs ?? 60_000)) return tokens.accessToken;
    // One refresh at a time: with rotating refresh tokens, a second use of the old one revokes the family.
    this.refreshing ??= this.refresh(tokens).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Who the stored sign-in is, asked of the server (`GET /api/me`). A 401 means the access token died
   * before its time (revoked from another device, by an admin, or a reused refresh token ended the
   * family): one forced refresh decides; when that is refused too the tokens are forgotten and the
   * answer is `signed-out`. `unknown` = the server could not say (offline, an older server without
   * `/api/me`); the sign-in is kept then.
   */
  async whoAmI(): Promise<{ kind: 'user'; user: string } | { kind: 'signed-out' } | { kind: 'unknown' }> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.getAccessToken();
      if (!token) return { kind: 'signed-out' };
      let response: Response;
      try {
        response = await this.fetchImpl(`${this.o.serverUrl.replace(/\/+$/, '')}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      } catch {
        return { kind: 'unknown' };
      }
      if (response.status === 401) {
        await response.arrayBuffer().catch(() => undefined);
        if (attempt === 0 && (await this.refreshAfterRejection(token))) continue;
        return (await this.isSignedIn()) ? { kind: 'unknown' } : { kind: 'signed-out' };
      }
      const body = (await response.json().catch(() => null)) as { user?: unknown } | null;
      return response.ok && typeof body?.user === 'string' ? { kind: 'user', user: body.user } : { kind: 'unknown' };
    }
    return { kind: 'unknown' };
  }

  /**
   * The server refused `rejected` (401) although it has not expired: refresh now instead of waiting for
   * the expiry. True when a different access token is stored afterwards; a refused refresh forgets the
   * tokens (see `refresh`), and a stored token without a refresh token is forgotten at once.
   */
  async refreshAfterRejection(rejected: string): Promise<boolean> {
    const tokens = await this.load();
    if (!tokens) return false;
    if (tokens.accessToken !== rejected) return true;
    if (!tokens.refreshToken) {
      await this.o.credentials.delete(this.account);
      return false;
    }
    this.refreshing ??= this.refresh(tokens).finally(() => {
      this.refreshing = null;
    });
    const next = await this.refreshing;
    return next !== null && next !== rejected;
  }

  /** Revokes (RFC 7009) and forgets; forgetting happens even when the server cannot be reached. */
  async signOut(): Promise<void> {
    const tokens = await this.load();
    await this.o.credentials.delete(this.account);
    if (!tokens) return;
    // Without metadata there is nowhere to revoke; the tokens are already forgotten.
    const meta = await this.discover().catch(() => null);
    if (!meta?.revocation_endpoint) return;
    const as = meta as oauth.AuthorizationServer;
    for (const [token, hint] of [
      [tokens.refreshToken, 'refresh_token'],
      [tokens.accessToken, 'access_token'],
    ] as const) {
      if (!token) continue;
      await oauth
        .revocationRequest(as, this.client, oauth.None(), token, { ...this.requestOptions(), additionalParameters: { token_type_hint: hint } })
        .then((response) => oauth.processRevocationResponse(response))
        .catch((error: Error) => this.o.logger.warn('token revocation failed', { message: error.message }));
    }
  }

  private async refresh(tokens: StoredTokens): Promise<string | null> {
    if (!tokens.refreshToken) return tokens.expiresAt > this.o.clock.now() ? tokens.accessToken : null;
    const stillValid = () => (tokens.expiresAt > this.o.clock.now() ? tokens.accessToken : null);
    const refreshToken = tokens.refreshToken;
    // No metadata (offline, a refused issuer): keep the tokens, the current one while it lasts.
    const meta = await this.discover().catch(() => null);
    if (!meta) return stillValid();
    const as = meta as oauth.AuthorizationServer;
    let next: StoredTokens;
    try {
      next = await this.tokenRequest(async (options) =>
        oauth.processRefreshTokenResponse(as, this.client, await oauth.refreshTokenGrantRequest(as, this.client, oauth.None(), refreshToken, options)),
      );
    } catch (error) {
      if (error instanceof AppFailure && error.code === 'permission_denied') {
        // invalid_grant: the refresh token is dead (expired, revoked, reused); sign in again.
        await this.o.credentials.delete(this.account);
        return null;
      }
      return stillValid();
    }
    await this.save({ ...next, refreshToken: next.refreshToken ?? tokens.refreshToken });
    return next.accessToken;
  }

  /**
   * One token endpoint exchange through oauth4webapi, its answer as the tokens to store. An OAuth error
   * answer `invalid_grant` (the code or refresh token is dead) throws `AppFailure('permission_denied')`;
   * anything else, the network included, `AppFailure('io_error')`.
   */
  private async tokenRequest(exchange: (options: RequestOptions) => Promise<oauth.TokenEndpointResponse>): Promise<StoredTokens> {
    let body: oauth.TokenEndpointResponse;
    try {
      body = await exchange(this.requestOptions());
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError) {
        throw new AppFailure(error.error === 'invalid_grant' ? 'permission_denied' : 'io_error', `the team server refused the sign-in (${error.error})`);
      }
      if (error instanceof oauth.OperationProcessingError) throw new AppFailure('io_error', `the team server refused the sign-in (${error.message})`);
      throw new AppFailure('io_error', `the team server cannot be reached: ${(error as Error).message}`);
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 900;
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresAt: this.o.clock.now() + expiresIn * 1000,
    };
  }

  private requestOptions(): RequestOptions {
    return { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: this.fetchImpl };
  }

  private get client(): oauth.Client {
    return { client_id: this.clientId };
  }

  private get clientId(): string {
    return this.o.clientId ?? 'strata-desktop';
  }

  private async load(): Promise<StoredTokens | null> {
    const raw = await this.o.credentials.get(this.account);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as StoredTokens;
    } catch {
      return null;
    }
  }

  private save(tokens: StoredTokens): Promise<void> {
    return this.o.credentials.set(this.account, JSON.stringify(tokens));
  }
}
