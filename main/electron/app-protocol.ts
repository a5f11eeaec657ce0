import { promises as fs } from 'node:fs';
import type { Protocol } from 'electron';
import { contentSecurityPolicy } from '../core/security/index.js';
import { mimeTypeOf, resolveStaticFile } from '../core/security/index.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'strata';
export const APP_ORIGIN_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * Serves the built renderer from `app://strata/` with a strict CSP, never outside `rendererDir`
 * (a `..` in the URL or a symlink out is a 404).
 */
export function registerAppProtocol(protocol: Protocol, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    const file = await resolveStaticFile(rendererDir, url.pathname.replace(/^\/?$/, '/index.html'));
    if (!file) return new Response('Not found', { status: 404 });
    const body = await fs.readFile(file);
    return new Response(body, {
      headers: {
        'content-type': mimeTypeOf(file),
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
