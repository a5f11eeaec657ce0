import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A PKCE pair (RFC 7636 §4.1–4.2, S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A real loopback redirect listener (RFC 8252 §7.3) that records what reaches /callback. */
export async function loopbackListener(): Promise<{ redirectUri: string; received: Promise<URLSearchParams>; close: () => Promise<void> }> {
  let resolve!: (params: URLSearchParams) => void;
  const received = new Promise<URLSearchParams>((r) => (resolve = r));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') resolve(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this tab.');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The parameters of an authorization request from the desktop client. */
export function authorizeQuery(redirectUri: string, challenge: string, overrides: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({
    response_type: 'code',
    client_id: 'strata-desktop',
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  });
}

/** Loads the sign-in page; returns its CSRF field and cookie. */
export async function openSignIn(base: string, query: URLSearchParams): Promise<{ status: number; csrf: string; cookie: string; html: string }> {
  const res = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual' });
  const html = await res.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { status: res.status, csrf, cookie, html };
}

/** Submits the sign-in form; returns the raw response (302 to the redirect URI on success). */
export function submitSignIn(base: string, query: URLSearchParams, form: Record<string, string>, cookie: string): Promise<Response> {
  const body = new URLSearchParams({ ...Object.fromEntries(query), ...form });
  return fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body,
  });
}

/** Posts a form to the token or revocation endpoint. */
export async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * The whole browser part of a sign-in: page, form, redirect followed to the real loopback listener.
 * Returns the code and state the listener received.
 */
export async function signIn(base: string, username: string, password: string, challenge: string) {
  const listener = await loopbackListener();
  try {
    const query = authorizeQuery(listener.redirectUri, challenge);
    const page = await openSignIn(base, query);
    const res = await submitSignIn(base, query, { username, password, csrf: page.csrf }, page.cookie);
    if (res.status !== 302) throw new Error(`sign-in answered ${res.status}`);
    await fetch(res.headers.get('location')!);
    const params = await listener.received;
    return { code: params.get('code') ?? '', state: params.get('state'), sentState: query.get('state'), redirectUri: listener.redirectUri };
  } finally {
    await listener.close();
  }
}

/**
 * A reverse proxy on loopback that serves the team server under `prefix` (e.g. `/strata`), stripping it,
 * as README's "behind a proxy under a path" deployment does. `target` is set once the server runs.
 */
export async function prefixProxy(prefix: string): Promise<{ url: string; setTarget: (base: string) => void; close: () => Promise<void> }> {
  let target = '';
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (!path.startsWith(`${prefix}/`)) {
      res.writeHead(404).end();
      return;
    }
    const upstream = new URL(path.slice(prefix.length), target);
    const forward = http.request(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`,
    setTarget: (base) => (target = base),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * The sign-in as a browser does it: load the page at `authorizeUrl`, post the form to its `action`
 * resolved against the page's URL, and send the cookie only where its Path attribute lets the browser
 * send it (RFC 6265 §5.1.4). Returns the response to the form (302 to the app on success).
 */
export async function browserSignIn(authorizeUrl: string, username: string, password: string): Promise<Response> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  const html = await page.text();
  const action = new URL(/<form method="post" action="([^"]*)"/.exec(html)?.[1] ?? '', authorizeUrl);
  const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
  const setCookie = page.headers.get('set-cookie') ?? '';
  const cookiePath = /;\s*Path=([^;]+)/i.exec(setCookie)?.[1] ?? new URL('.', authorizeUrl).pathname.replace(/\/$/, '');
  const sendsCookie = action.pathname === cookiePath || action.pathname.startsWith(`${cookiePath.replace(/\/$/, '')}/`);
  return fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(sendsCookie ? { cookie: setCookie.split(';')[0]! } : {}) },
    body: new URLSearchParams({ ...fields, username, password }),
  });
}

/**
 * One sign-in through the form, claiming to come from `from` (as X-Forwarded-For, which only a server
 * trusting the proxy believes). Returns the status, Retry-After and the page's error message.
 */
export async function formSignIn(base: string, username: string, pass: string, from?: string): Promise<{ status: number; retryAfter: string | null; error: string }> {
  const query = authorizeQuery('http://127.0.0.1:9/callback', pkcePair().challenge);
  const page = await openSignIn(base, query);
  const res = await fetch(`${base}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie, ...(from ? { 'x-forwarded-for': from } : {}) },
    body: new URLSearchParams({ ...Object.fromEntries(query), username, password: pass, csrf: page.csrf }),
  });
  const html = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), error: /<p class="error" role="alert"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? '' };
}
