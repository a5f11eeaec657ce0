import { expect } from 'vitest';

const unescape = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/**
 * The first half of a person's sign-in in the browser tab the app opened: load the team server's
 * sign-in page and submit the form. Returns where the server redirects: the app's loopback listener.
 */
export async function submitSignInForm(authorizeUrl: string, username: string, password: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1]!, unescape(m[2]!));
  form.set('username', username);
  form.set('password', password);
  const posted = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(posted.status).toBe(302);
  const location = posted.headers.get('location')!;
  expect(location.startsWith('http://127.0.0.1:')).toBe(true);
  return location;
}

/** The whole sign-in as a person does it: the form, then the redirect. Returns the page the listener showed. */
export async function signInAsBrowser(authorizeUrl: string, username: string, password: string): Promise<string> {
  return (await fetch(await submitSignInForm(authorizeUrl, username, password))).text();
}
