import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Double-submit CSRF protection for the sign-in form: a random value in a SameSite=Strict, HttpOnly
 * cookie and in a hidden field; the POST must carry both, equal. Needs no server state, so it works
 * across instances behind a load balancer.
 */
export const csrfCookieName = 'strata_csrf';

export function newCsrfToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The cookie, scoped to `path`: the folder of the sign-in form as the browser addresses it. */
export function csrfCookie(token: string, site: { secure: boolean; path: string }): string {
  return `${csrfCookieName}=${token}; Path=${site.path}; HttpOnly; SameSite=Strict; Max-Age=1800${site.secure ? '; Secure' : ''}`;
}

/** The value of one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

export function csrfMatches(cookie: string | null, field: unknown): boolean {
  if (!cookie || typeof field !== 'string' || cookie.length !== field.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(field));
}
