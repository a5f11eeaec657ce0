/**
 * The desktop client's redirect URI (docs/architecture.md; RFC 8252 §7.3 loopback redirection): exactly
 * `http://127.0.0.1:<any port>/callback`, the port chosen by the app at sign-in time.
 */
export function isLoopbackRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1' || url.pathname !== '/callback') return false;
  if (url.username || url.password || url.search || url.hash) return false;
  // The port must be explicit (RFC 8252 §7.3), and the string must be in canonical form, so the
  // exact-match check at the token endpoint compares what the browser actually used.
  const port = Number(url.port);
  return Number.isInteger(port) && port > 0 && port <= 65535 && uri === `http://127.0.0.1:${url.port}/callback`;
}
