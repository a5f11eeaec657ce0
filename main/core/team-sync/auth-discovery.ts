import * as oauth from 'oauth4webapi';
import { AppFailure } from '../../../common/result.js';

/** RFC 8414 metadata, the fields the desktop client uses. */
export interface AuthServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint?: string;
  code_challenge_methods_supported?: string[];
}

/**
 * The issuer the client expects (RFC 8414 §2): the team server URL's scheme, host, port and path,
 * without a trailing slash. A query or fragment cannot be part of an issuer, so such a URL is refused
 * (`AppFailure('invalid_request')`).
 */
export function issuerOf(serverUrl: string): string {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    throw new AppFailure('invalid_request', `the team server URL "${serverUrl}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppFailure('invalid_request', `the team server URL must be http(s), not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) {
    throw new AppFailure('invalid_request', 'the team server URL cannot carry a query, a fragment or credentials (it names the OAuth issuer)');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * RFC 8414 §3.1: the well-known suffix goes between the host and the issuer's path, so an issuer
 * `https://host/team` publishes at `https://host/.well-known/oauth-authorization-server/team`.
 */
export function metadataUrlOf(issuer: string): string {
  const url = new URL(issuer);
  return `${url.origin}/.well-known/oauth-authorization-server${url.pathname.replace(/\/+$/, '')}`;
}

/** The issuer an answer named, read from oauth4webapi's error (its `cause.body`), for the message. */
function namedIssuer(error: unknown): unknown {
  const cause = (error as { cause?: { body?: { issuer?: unknown } } }).cause;
  return cause?.body?.issuer ?? null;
}

/**
 * Fetches and checks the authorization server metadata (oauth4webapi's discovery: the request and the
 * issuer check). §3.3: the `issuer` it names must be the one derived from the team server URL; otherwise
 * another server's metadata could send the sign-in (and the tokens) elsewhere, so the client refuses.
 * Every refusal is an `AppFailure` whose message the sign-in shows as it is.
 */
export async function discoverAuthServer(serverUrl: string, fetchImpl: typeof fetch): Promise<AuthServerMetadata> {
  const issuer = issuerOf(serverUrl);
  const url = metadataUrlOf(issuer);
  const expected = new URL(issuer);
  let response: Response;
  try {
    // Plain http stays allowed: a team server on a LAN or loopback (docs/sync-protocol.md).
    response = await oauth.discoveryRequest(expected, { algorithm: 'oauth2', [oauth.customFetch]: fetchImpl, [oauth.allowInsecureRequests]: true });
  } catch (error) {
    throw new AppFailure('io_error', `the team server cannot be reached: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.arrayBuffer().catch(() => undefined);
    throw new AppFailure('unsupported', `${serverUrl} publishes no OAuth metadata at ${url} (${response.status})`);
  }
  let meta: oauth.AuthorizationServer;
  try {
    meta = await oauth.processDiscoveryResponse(expected, response);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === oauth.JSON_ATTRIBUTE_COMPARISON || code === oauth.INVALID_RESPONSE || error instanceof TypeError) {
      throw new AppFailure(
        'permission_denied',
        `refusing to sign in: the OAuth metadata at ${url} names the issuer ${JSON.stringify(namedIssuer(error))}, not ${JSON.stringify(issuer)} (the team server URL); check the team server URL, or the server's public URL`,
      );
    }
    throw new AppFailure('unsupported', `the OAuth metadata at ${url} is not JSON`);
  }
  if (typeof meta.authorization_endpoint !== 'string' || typeof meta.token_endpoint !== 'string') {
    throw new AppFailure('unsupported', 'the team server metadata has no authorization or token endpoint');
  }
  if (meta.code_challenge_methods_supported && !meta.code_challenge_methods_supported.includes('S256')) {
    throw new AppFailure('unsupported', 'the team server does not support PKCE S256');
  }
  return meta as AuthServerMetadata;
}
