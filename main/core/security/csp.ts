/**
 * The renderer's Content-Security-Policy, shared by the Electron `app://` protocol and the host.
 * It starts at `default-src 'none'` and opens only what the renderer uses. `connectSrc` is the
 * host's own WebSocket origin; in Electron the renderer connects nowhere.
 */
export function contentSecurityPolicy(connectSrc: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc.length ? connectSrc.join(' ') : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
