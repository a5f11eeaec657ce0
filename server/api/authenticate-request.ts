import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../common/ports.js';
import { authenticateBearer, bearerToken, type Caller } from '../auth/bearer-auth.js';
import type { AuthStore } from '../storage/auth-store.js';
import { ApiError } from './api-error.js';
import type { RateLimiter } from './rate-limiter.js';

/** What authenticating an API request needs. */
export interface RequestAuthDeps {
  auth: AuthStore;
  clock: Clock;
  limiter: RateLimiter;
}

const unauthorizedMessages = {
  missing: 'sign in: this request has no bearer token',
  invalid: 'the bearer token is not valid',
  expired: 'the bearer token has expired; refresh it or sign in again',
  revoked: 'the bearer token was revoked; sign in again',
} as const;

/**
 * The bearer token (401, RFC 6750 §3), then its rate limit (429 with Retry-After). Only valid tokens are
 * counted, so unknown ones never add rows to the shared window table. The caller is kept on the request
 * for the access log.
 */
export async function authenticateRequest(deps: RequestAuthDeps, request: FastifyRequest): Promise<Caller> {
  const auth = await authenticateBearer(deps.auth, deps.clock, bearerToken(request.headers.authorization));
  if (!auth.ok) {
    throw new ApiError(401, 'unauthorized', unauthorizedMessages[auth.reason], {}, {
      'www-authenticate': auth.reason === 'missing' ? 'Bearer realm="strata"' : 'Bearer realm="strata", error="invalid_token"',
    });
  }
  (request as FastifyRequest & { caller?: Caller }).caller = auth.caller;
  const wait = await deps.limiter.take(auth.caller.tokenId);
  if (wait !== null) {
    throw new ApiError(429, 'rate_limited', `too many requests; retry in ${wait} s`, { retry_after_seconds: wait }, { 'retry-after': String(wait) });
  }
  return auth.caller;
}
