import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Protocol } from 'electron';
import { contentSecurityPolicy } from '../core/security/index.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'strata';
export const APP_ORIGIN_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * Serves the built renderer from `app://strata/` with a strict CSP, never outside `rendererDir`
 * (a `..` in the URL or a symlink out is a 404).
 */
export function registerAppProtocol(protocol: Protocol, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    const relative = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'index.html';
    const file = path.resolve(rendererDir, relative);
    const real = await fs.realpath(file).catch(() => null);
    const root = await fs.realpath(rendererDir);
    if (!real || (real !== root && !real.startsWith(root + path.sep))) return new Response('Not found', { status: 404 });
    const body = await fs.readFile(real);
    return new Response(body, {
      headers: {
        'content-type': mimeTypes[path.extname(real)] ?? 'application/octet-stream',
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
