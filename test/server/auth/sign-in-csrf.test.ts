import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type ServerFixture } from '../helpers/server-fixture.js';
import { authorizeQuery, openSignIn, pkcePair, submitSignIn } from '../helpers/oauth-client.js';
import { tempDir } from '../../support/temp-dir.js';

// The sign-in form's CSRF cookie and token (docs/security.md): what the browser is told to keep, and the
// order of the checks a form post goes through.

let f: ServerFixture;
let behindHttps: ServerFixture;
const password = 'correct horse battery';
let username = '';

beforeAll(async () => {
  const db = `sqlite:${await tempDir()}/team.db`;
  f = await startFixture(db);
  behindHttps = await startFixture(db, {}, { publicUrl: 'https://strata.example.test/team' });
  ({ username } = await f.member([], password));
});
afterAll(async () => {
  await behindHttps.close();
  await f.close();
  f.logs.assertNoErrors();
  behindHttps.logs.assertNoErrors();
});

const setCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('strata_csrf=')) ?? '';
const attributes = (cookie: string) => cookie.split(';').slice(1).map((a) => a.trim().toLowerCase()).sort();

describe('the sign-in form CSRF cookie', () => {
  it('is HttpOnly, SameSite=Strict, lives 30 minutes and is scoped to /oauth on a plain server', async () => {
    const res = await fetch(`${f.server.url}/oauth/authorize?${authorizeQuery('http://127.0.0.1:9/callback', pkcePair().challenge)}`);
    expect(res.status).toBe(200);
    expect(attributes(setCookie(res))).toEqual(['httponly', 'max-age=1800', 'path=/oauth', 'samesite=strict']);
  });

  it('is Secure and scoped under the public path behind an https proxy', async () => {
    const res = await fetch(`${behindHttps.server.url}/oauth/authorize?${authorizeQuery('http://127.0.0.1:9/callback', pkcePair().challenge)}`);
    expect(attributes(setCookie(res))).toEqual(['httponly', 'max-age=1800', 'path=/team/oauth', 'samesite=strict', 'secure']);
    expect(await res.text()).toContain('action="/team/oauth/authorize"');
  });

  it('is new for every form shown, and a token only passes with the cookie it came with', async () => {
    const query = authorizeQuery('http://127.0.0.1:9/callback', pkcePair().challenge);
    const first = await openSignIn(f.server.url, query);
    const second = await openSignIn(f.server.url, query);
    expect(second.cookie).not.toBe(first.cookie);
    expect(second.csrf).not.toBe(first.csrf);
    const crossed = await submitSignIn(f.server.url, query, { username, password, csrf: first.csrf }, second.cookie);
    expect(crossed.status).toBe(403);
    expect(await crossed.text()).toContain('This sign-in form expired or did not come from this server.');
    expect(crossed.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await submitSignIn(f.server.url, query, { username, password, csrf: second.csrf }, second.cookie)).status).toBe(302);
  });

  it("answers a post's own problems before its CSRF check: an unknown client gets its page, a missing PKCE challenge its redirect", async () => {
    const unknownClient = await submitSignIn(f.server.url, authorizeQuery('http://127.0.0.1:9/callback', pkcePair().challenge, { client_id: 'someone-else' }), { username, password, csrf: 'x' }, '');
    expect(unknownClient.status).toBe(400);
    expect(await unknownClient.text()).toContain('Unknown client');
    const noPkce = await submitSignIn(f.server.url, authorizeQuery('http://127.0.0.1:9/callback', '', { code_challenge_method: 'plain' }), { username, password, csrf: 'x' }, '');
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('still answers a malformed form post with the API error, not the CSRF page', async () => {
    const res = await fetch(`${f.server.url}/oauth/authorize`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"not json' });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain('This sign-in form expired');
  });
});
