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
