import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';

/**
 * CSRF protection for the sign-in form (@fastify/csrf-protection on @fastify/cookie): a random secret in a
 * SameSite=Strict, HttpOnly cookie and a token derived from it in the form's hidden `csrf` field; the POST
 * must carry both. Needs no server state, so it works across instances behind a load balancer.
 */
export const csrfCookieName = 'strata_csrf';

/** How long a sign-in form stays usable, in seconds. */
const formLifetimeSeconds = 1800;

/** Registers the cookie and CSRF plugins on `scope`; its routes then have `reply.generateCsrf` and `scope.csrfProtection`. */
export async function registerCsrf(scope: FastifyInstance): Promise<void> {
  await scope.register(fastifyCookie);
  await scope.register(fastifyCsrfProtection, {
    cookieKey: csrfCookieName,
    cookieOpts: { httpOnly: true, sameSite: 'strict', maxAge: formLifetimeSeconds },
    getToken: (request: FastifyRequest) => {
      const field = (request.body as Record<string, unknown> | null | undefined)?.csrf;
      return typeof field === 'string' ? field : undefined;
    },
  });
}

/**
 * A token for a newly shown form, with a new secret cookie scoped to `site.path` (the folder of the form
 * as the browser addresses it): each form shown starts its own lifetime.
 */
export function newFormToken(request: FastifyRequest, reply: FastifyReply, site: { secure: boolean; path: string }): string {
  delete request.cookies[csrfCookieName];
  return reply.generateCsrf({ path: site.path, secure: site.secure, httpOnly: true, sameSite: 'strict', maxAge: formLifetimeSeconds });
}

/** The plugin's refusal: its cookie was missing or the field did not match it. */
export function isCsrfRefusal(error: FastifyError): boolean {
  return error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN';
}
