import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnBackends } from '../helpers/backends.js';
import { client, json, freshRepo, startFixture, type ServerFixture } from '../helpers/server-fixture.js';
import { authorizeQuery, browserSignIn, loopbackListener, openSignIn, pkcePair, postForm, prefixProxy, signIn, submitSignIn } from '../helpers/oauth-client.js';

const minute = 60_000;
const day = 24 * 60 * minute;

describeOnBackends('OAuth authorization server', (backend) => {
  let f: ServerFixture;
  let repo: string;
  const password = 'correct horse battery';
  let username: string;

  beforeAll(async () => {
    f = await startFixture(backend.url());
    repo = freshRepo();
    ({ username } = await f.member([repo], password));
  });
  afterAll(async () => {
    await f.close();
    f.logs.assertNoErrors();
  });

  const tokenUrl = () => `${f.server.url}/oauth/token`;

  async function exchange(code: string, redirectUri: string, verifier: string) {
    return postForm(tokenUrl(), { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: 'strata-desktop', code_verifier: verifier });
  }

  async function signedIn() {
    const { verifier, challenge } = pkcePair();
    const { code, redirectUri } = await signIn(f.server.url, username, password, challenge);
    const res = await exchange(code, redirectUri, verifier);
    expect(res.status).toBe(200);
    return res.body as { access_token: string; refresh_token: string; expires_in: number; token_type: string };
  }

  it('publishes RFC 8414 metadata for the public client with PKCE S256 only', async () => {
    const meta = await json((await fetch(`${f.server.url}/.well-known/oauth-authorization-server`)));
    expect(meta).toMatchObject({
      issuer: f.server.publicUrl,
      authorization_endpoint: `${f.server.publicUrl}/oauth/authorize`,
      token_endpoint: `${f.server.publicUrl}/oauth/token`,
      revocation_endpoint: `${f.server.publicUrl}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
    });
  });

  it('completes code + PKCE through a real loopback redirect and the token reaches only member repositories', async () => {
    const { verifier, challenge } = pkcePair();
    const { code, state, sentState, redirectUri } = await signIn(f.server.url, username, password, challenge);
    expect(code).toMatch(/^sac_/);
    expect(state).toBe(sentState);
    const res = await exchange(code, redirectUri, verifier);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer' });
    expect(res.body.expires_in).toBeGreaterThan(14 * 60);
    expect(res.body.expires_in).toBeLessThanOrEqual(15 * 60);
    const token = res.body.access_token as string;
    expect(await (await client(token).get(`${f.server.url}/api/me`)).json()).toEqual({ user: username });
    expect((await client(token).get(f.api(repo))).status).toBe(404);
    expect((await client(token).put(f.api(repo), { entries: { 'a.md': 'x' } })).status).toBe(200);
    const other = freshRepo();
    await f.member([other]);
    expect((await client(token).get(f.api(other))).status).toBe(403);
    expect((await client(token).put(f.api(other), { entries: { 'a.md': 'x' } })).status).toBe(403);
    // The access log names the user, never a secret of the flow.
    const logged = JSON.stringify(f.logs.entries);
    expect(logged).toContain(username);
    for (const secret of [code, verifier, password, token, res.body.refresh_token as string]) expect(logged).not.toContain(secret);
  });

  it('signs in behind a reverse proxy that serves it under a path (README): the form posts, and its CSRF cookie is sent, under that path', async () => {
    const proxy = await prefixProxy('/strata');
    const behind = await startFixture(backend.url(), {}, { publicUrl: proxy.url });
    proxy.setTarget(behind.server.url);
    const listener = await loopbackListener();
    try {
      const meta = (await (await fetch(`${proxy.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
      expect(meta.issuer).toBe(proxy.url);
      const { verifier, challenge } = pkcePair();
      const query = authorizeQuery(listener.redirectUri, challenge);
      const res = await browserSignIn(`${meta.authorization_endpoint}?${query}`, username, password);
      expect(res.status).toBe(302);
      await fetch(res.headers.get('location')!);
      const code = (await listener.received).get('code')!;
      const tokens = await postForm(meta.token_endpoint!, { grant_type: 'authorization_code', code, redirect_uri: listener.redirectUri, client_id: 'strata-desktop', code_verifier: verifier });
      expect(tokens.status).toBe(200);
      const api = `${proxy.url}/api/team_memory?repo=${encodeURIComponent(repo)}`;
      expect((await client(tokens.body.access_token as string).get(api)).status).not.toBe(401);
    } finally {
      await listener.close();
      await behind.close();
      await proxy.close();
    }
    behind.logs.assertNoErrors();
  });

  it('refuses a wrong code verifier, and the code is spent by the attempt', async () => {
    const { verifier, challenge } = pkcePair();
    const { code, redirectUri } = await signIn(f.server.url, username, password, challenge);
    const wrong = await exchange(code, redirectUri, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect((await exchange(code, redirectUri, verifier)).status).toBe(400);
  });

  it('refuses a reused code and revokes the tokens the first use issued', async () => {
    const { verifier, challenge } = pkcePair();
    const { code, redirectUri } = await signIn(f.server.url, username, password, challenge);
    const first = await exchange(code, redirectUri, verifier);
    expect(first.status).toBe(200);
    const again = await exchange(code, redirectUri, verifier);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await client(first.body.access_token as string).get(f.api(repo))).status).toBe(401);
  });

  it('refuses a token request whose redirect URI differs from the authorization request', async () => {
    const { verifier, challenge } = pkcePair();
    const { code } = await signIn(f.server.url, username, password, challenge);
    const res = await exchange(code, 'http://127.0.0.1:1/callback', verifier);
    expect(res.status).toBe(400);
  });

  it('shows an error page, never a redirect, for a redirect URI that is not a loopback callback', async () => {
    const { challenge } = pkcePair();
    for (const uri of ['http://evil.example/callback', 'http://localhost:5000/callback', 'https://127.0.0.1:5000/callback', 'http://127.0.0.1:5000/other', 'http://127.0.0.1/callback']) {
      const res = await fetch(`${f.server.url}/oauth/authorize?${authorizeQuery(uri, challenge)}`, { redirect: 'manual' });
      expect(res.status, uri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
    const unknownClient = await fetch(`${f.server.url}/oauth/authorize?${authorizeQuery('http://127.0.0.1:5000/callback', challenge, { client_id: 'other' })}`, { redirect: 'manual' });
    expect(unknownClient.status).toBe(400);
  });

  it('redirects back with invalid_request when PKCE is missing or plain', async () => {
    const listener = await loopbackListener();
    try {
      for (const overrides of [{ code_challenge_method: 'plain' }, { code_challenge: '' }] as Record<string, string>[]) {
        const res = await fetch(`${f.server.url}/oauth/authorize?${authorizeQuery(listener.redirectUri, pkcePair().challenge, overrides)}`, { redirect: 'manual' });
        expect(res.status).toBe(302);
        expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
      }
    } finally {
      await listener.close();
    }
  });

  it('refuses a sign-in form without the matching CSRF token, and a wrong password', async () => {
    const listener = await loopbackListener();
    try {
      const query = authorizeQuery(listener.redirectUri, pkcePair().challenge);
      const page = await openSignIn(f.server.url, query);
      expect(page.status).toBe(200);
      expect(page.html).toContain('name="password"');
      const noCookie = await submitSignIn(f.server.url, query, { username, password, csrf: page.csrf }, '');
      expect(noCookie.status).toBe(403);
      const otherToken = await submitSignIn(f.server.url, query, { username, password, csrf: 'x'.repeat(page.csrf.length) }, page.cookie);
      expect(otherToken.status).toBe(403);
      const wrongPassword = await submitSignIn(f.server.url, query, { username, password: 'wrong password', csrf: page.csrf }, page.cookie);
      expect(wrongPassword.status).toBe(401);
      expect(await wrongPassword.text()).toContain('Wrong username or password');
      const unknownUser = await submitSignIn(f.server.url, query, { username: 'nobody', password, csrf: page.csrf }, page.cookie);
      expect(unknownUser.status).toBe(401);
      // A name no account can have (PostgreSQL cannot even compare a NUL) is a plain wrong sign-in.
      for (const name of [`${username}\0`, 'x'.repeat(200), 'a b']) {
        expect((await submitSignIn(f.server.url, query, { username: name, password, csrf: page.csrf }, page.cookie)).status).toBe(401);
      }
    } finally {
      await listener.close();
    }
  });

  it('refuses an expired authorization code', async () => {
    const { verifier, challenge } = pkcePair();
    const { code, redirectUri } = await signIn(f.server.url, username, password, challenge);
    f.clock.advance(6 * minute);
    try {
      expect((await exchange(code, redirectUri, verifier)).status).toBe(400);
    } finally {
      f.clock.advance(-6 * minute);
    }
  });

  it('expires access tokens after 15 minutes and refreshes with a rotating refresh token', async () => {
    const tokens = await signedIn();
    f.clock.advance(16 * minute);
    try {
      const expired = await client(tokens.access_token).get(f.api(repo));
      expect(expired.status).toBe(401);
      expect((await json(expired)).error.message).toMatch(/expired/);
      const refreshed = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'strata-desktop' });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
      expect((await client(refreshed.body.access_token as string).get(f.api(repo))).status).not.toBe(401);
    } finally {
      f.clock.advance(-16 * minute);
    }
  });

  it('revokes the whole family when a rotated refresh token is presented again', async () => {
    const tokens = await signedIn();
    const rotated = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'strata-desktop' });
    expect(rotated.status).toBe(200);
    const reuse = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'strata-desktop' });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    expect((await client(rotated.body.access_token as string).get(f.api(repo))).status).toBe(401);
    const successor = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token as string, client_id: 'strata-desktop' });
    expect(successor.status).toBe(400);
  });

  it('refuses a refresh token after 30 days', async () => {
    const tokens = await signedIn();
    f.clock.advance(31 * day);
    try {
      const res = await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'strata-desktop' });
      expect(res.status).toBe(400);
    } finally {
      f.clock.advance(-31 * day);
    }
  });

  it('revokes per RFC 7009: an access token or a refresh token ends the sign-in; unknown tokens answer 200', async () => {
    const a = await signedIn();
    expect((await postForm(`${f.server.url}/oauth/revoke`, { token: a.access_token, client_id: 'strata-desktop' })).status).toBe(200);
    expect((await client(a.access_token).get(f.api(repo))).status).toBe(401);
    expect((await postForm(tokenUrl(), { grant_type: 'refresh_token', refresh_token: a.refresh_token, client_id: 'strata-desktop' })).status).toBe(400);

    const b = await signedIn();
    expect((await postForm(`${f.server.url}/oauth/revoke`, { token: b.refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
    expect((await client(b.access_token).get(f.api(repo))).status).toBe(401);
    expect((await postForm(`${f.server.url}/oauth/revoke`, { token: 'srt_unknown' })).status).toBe(200);
  });

  it('answers a token request that is not a form with an RFC 6749 §5.2 error, never 200', async () => {
    const attempts: [string | undefined, string][] = [
      ['application/json', JSON.stringify({ grant_type: 'authorization_code', code: 'x', client_id: 'strata-desktop' })],
      [undefined, ''],
      ['application/x-www-form-urlencoded', ''],
    ];
    for (const [type, body] of attempts) {
      const res = await fetch(tokenUrl(), { method: 'POST', headers: type ? { 'content-type': type } : {}, body });
      const answer = (await res.json()) as { error?: string; error_description?: string };
      expect(res.status, `${type} ${body}`).toBe(400);
      // RFC 6749 §5.2's codes; an empty form is missing client_id as well, so either may lead.
      expect(['invalid_request', 'invalid_client']).toContain(answer.error);
      expect(answer.error_description).toMatch(/\w/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
