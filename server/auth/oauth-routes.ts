import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { Clock, Logger } from '../../common/ports.js';
import type { AuthStore } from '../storage/auth-store.js';
import { hashSecret, verifyPassword, type PasswordCost } from '../server-crypto.js';
import { desktopClientId, usernamePattern, type AuthLifetimes } from '../server-options.js';
import { createOAuthModel, type OAuthUser } from './oauth-model.js';
import { isLoopbackRedirect } from './redirect-uri.js';
import { authorizeParams, renderErrorPage, renderSignInPage, signInPageCsp } from './sign-in-page.js';
import { isCsrfRefusal, newFormToken } from './csrf.js';
import type { SignInThrottle } from './sign-in-throttle.js';

/** What the OAuth routes need. */
export interface OAuthDeps {
  auth: AuthStore;
  clock: Clock;
  logger: Logger;
  lifetimes: AuthLifetimes;
  throttle: SignInThrottle;
  /** The cost a sign-in with no such account pays, to match one with an account. */
  passwordCost: PasswordCost;
  /** The issuer, e.g. `https://strata.example.com` (no trailing slash). */
  publicUrl: string;
}

type Params = Record<string, string>;

const challengePattern = /^[A-Za-z0-9\-._~]{43,128}$/;

function pickParams(source: unknown): Params {
  const record = (source ?? {}) as Record<string, unknown>;
  return Object.fromEntries(authorizeParams.map((name) => [name, typeof record[name] === 'string' ? (record[name] as string) : '']));
}

/**
 * Checks an authorization request before any sign-in. Unknown clients and redirect URIs get a page
 * (never a redirect, RFC 6749 §4.1.2.1); anything else redirects back with `error` (§4.1.2.1 too).
 */
function checkAuthorize(params: Params): { page: string } | { redirect: string } | null {
  if (params.client_id !== desktopClientId) return { page: 'Unknown client: only the Strata app can sign in here.' };
  if (!isLoopbackRedirect(params.redirect_uri!)) {
    return { page: 'The redirect address must be http://127.0.0.1:<port>/callback.' };
  }
  const fail = (error: string, description: string) => {
    const url = new URL(params.redirect_uri!);
    url.searchParams.set('error', error);
    url.searchParams.set('error_description', description);
    if (params.state) url.searchParams.set('state', params.state);
    return { redirect: url.toString() };
  };
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (!params.state) return fail('invalid_request', 'state is required');
  // PKCE S256 is mandatory (docs/architecture.md; RFC 9700 §2.1.1): no challenge, or plain, is refused.
  if (params.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (!challengePattern.test(params.code_challenge!)) return fail('invalid_request', 'code_challenge is missing or malformed');
  return null;
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  reply.code(status).type('text/html; charset=utf-8').headers({
    'content-security-policy': signInPageCsp,
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  return reply.send(html);
}

/** An RFC 6749 §5.2 error answer: `error`, `error_description`, no caching. */
function sendTokenError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send({ error, error_description: description });
}

function oauthRequest(request: FastifyRequest): OAuth2Server.Request {
  return new OAuth2Server.Request({
    method: request.method,
    query: { ...(request.query as object) },
    body: { ...((request.body as object | undefined) ?? {}) },
    headers: request.headers as Record<string, string>,
  });
}

/** RFC 8414 metadata, the authorization endpoint with its sign-in page, the token and revocation endpoints. */
export function registerOAuthRoutes(app: FastifyInstance, deps: OAuthDeps): void {
  const model = createOAuthModel(deps.auth, deps.clock, deps.lifetimes);
  const oauth = new OAuth2Server({ model });
  // Inside this scope any other body type reaches the handlers as text, so the token endpoint can answer
  // it with its own RFC 6749 §5.2 error instead of the API's 415.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // The form and its cookie live under --public-url's path, which a proxy may add in front of /oauth
  // (README: behind a proxy under a path); the browser only ever sees that address.
  const site = () => ({
    secure: deps.publicUrl.startsWith('https:'),
    path: `${deps.publicUrl ? new URL(deps.publicUrl).pathname.replace(/\/+$/, '') : ''}/oauth`,
  });
  const sendSignInPage = (request: FastifyRequest, reply: FastifyReply, status: number, page: { params: Params; username?: string; error?: string }) => {
    const where = site();
    const csrf = newFormToken(request, reply, where);
    return sendPage(reply, status, renderSignInPage({ ...page, csrf, action: `${where.path}/authorize` }));
  };

  app.get('/.well-known/oauth-authorization-server', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send({
      issuer: deps.publicUrl,
      authorization_endpoint: `${deps.publicUrl}/oauth/authorize`,
      token_endpoint: `${deps.publicUrl}/oauth/token`,
      revocation_endpoint: `${deps.publicUrl}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
    }),
  );

  app.get('/oauth/authorize', async (request, reply) => {
    const params = pickParams(request.query);
    const problem = checkAuthorize(params);
    if (problem && 'page' in problem) return sendPage(reply, 400, renderErrorPage(problem.page));
    if (problem) return reply.redirect(problem.redirect, 302);
    return sendSignInPage(request, reply, 200, { params });
  });

  // The request's own problems are answered first (a page, or a redirect back with `error`); then the
  // CSRF check, whose refusal is a page too, never the API's JSON error.
  const authorizeProblem = async (request: FastifyRequest, reply: FastifyReply) => {
    const problem = checkAuthorize(pickParams(request.body));
    if (problem && 'page' in problem) return sendPage(reply, 400, renderErrorPage(problem.page));
    if (problem) return reply.redirect(problem.redirect, 302);
    return undefined;
  };
  const csrfRefused = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    if (!isCsrfRefusal(error)) throw error;
    return sendPage(reply, 403, renderErrorPage('This sign-in form expired or did not come from this server. Start the sign-in again from the app.'));
  };

  app.post('/oauth/authorize', { preHandler: [authorizeProblem, app.csrfProtection], errorHandler: csrfRefused }, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const params = pickParams(form);
    const username = typeof form.username === 'string' ? form.username : '';
    const password = typeof form.password === 'string' ? form.password : '';
    // A name no account can have is never looked up (PostgreSQL refuses a NUL in text with an error),
    // nor counted per username; its attempts still count against the address.
    const possible = usernamePattern.test(username);
    const throttled = await deps.throttle.begin(possible ? username : null, request.ip);
    if (!throttled.ok) {
      deps.logger.warn('sign-in throttled', { reqId: request.id });
      const minutes = Math.ceil(throttled.retryAfterSeconds / 60);
      reply.header('retry-after', String(throttled.retryAfterSeconds));
      return sendSignInPage(request, reply, 429, {
        params,
        username,
        error: `Too many failed sign-in attempts. Wait ${minutes} minute${minutes === 1 ? '' : 's'}, then try again.`,
      });
    }
    const user = possible ? await deps.auth.findUser(username) : null;
    if (!(await verifyPassword(password, user?.passwordHash ?? null, deps.passwordCost)) || !user) {
      deps.logger.warn('sign-in refused', { reqId: request.id });
      return sendSignInPage(request, reply, 401, { params, username, error: 'Wrong username or password.' });
    }
    await deps.throttle.succeeded(throttled.attempt);
    const response = new OAuth2Server.Response();
    const oauthUser: OAuthUser = { id: user.id, username: user.username };
    try {
      await oauth.authorize(oauthRequest(request), response, {
        authenticateHandler: { handle: async () => oauthUser },
        authorizationCodeLifetime: Math.ceil(deps.lifetimes.authCodeMs / 1000),
        allowEmptyState: false,
      });
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError)) throw error;
    }
    deps.logger.info('signed in', { reqId: request.id, user: user.username });
    const location = response.get('location') as string | undefined;
    if (!location) return sendPage(reply, 500, renderErrorPage('The sign-in could not be completed.'));
    return reply.redirect(location, 302);
  });

  app.post('/oauth/token', async (request, reply) => {
    const response = new OAuth2Server.Response();
    // RFC 6749 §3.2 and §5.2: the token endpoint takes a form body; anything else is a 400
    // `invalid_request` with a description, never a 200 with an empty body.
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/x-www-form-urlencoded') || typeof request.body !== 'object' || request.body === null) {
      return sendTokenError(reply, 400, 'invalid_request', 'send the token request as application/x-www-form-urlencoded (RFC 6749 §4.1.3)');
    }
    try {
      await oauth.token(oauthRequest(request), response, {
        accessTokenLifetime: Math.floor(deps.lifetimes.accessTokenMs / 1000),
        refreshTokenLifetime: Math.floor(deps.lifetimes.refreshTokenMs / 1000),
        requireClientAuthentication: { authorization_code: false, refresh_token: false },
        alwaysIssueNewRefreshToken: true,
      });
    } catch (error) {
      if (!(error instanceof OAuth2Server.OAuthError)) throw error;
      const body = response.body as { error?: unknown } | undefined;
      if (typeof body?.error !== 'string') {
        const status = error.code >= 400 && error.code < 500 ? error.code : 400;
        return sendTokenError(reply, status, error.name === 'invalid_argument' || status === 400 ? 'invalid_request' : error.name, error.message);
      }
    }
    return reply
      .code(response.status ?? 200)
      .headers({ ...(response.headers as Record<string, string>), 'cache-control': 'no-store' })
      .send(response.body);
  });

  // RFC 7009: 200 whether or not the token was known; revoking either kind ends the whole sign-in.
  app.post('/oauth/revoke', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    if (form.client_id !== undefined && form.client_id !== desktopClientId) {
      return reply.code(401).send({ error: 'invalid_client', error_description: 'unknown client' });
    }
    if (typeof form.token !== 'string' || form.token === '') {
      return reply.code(400).send({ error: 'invalid_request', error_description: 'token is required' });
    }
    const hash = hashSecret(form.token);
    const now = deps.clock.now();
    const refresh = await deps.auth.findRefreshToken(hash);
    if (refresh) await deps.auth.revokeFamily(refresh.familyId, now);
    else {
      const access = await deps.auth.findAccessToken(hash);
      if (access?.kind === 'oauth' && access.familyId) await deps.auth.revokeFamily(access.familyId, now);
    }
    return reply.code(200).header('cache-control', 'no-store').send();
  });
}
