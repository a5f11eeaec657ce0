import { expect } from 'vitest';

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A browser: opens the authorize page, submits the sign-in form, follows the redirect to the loopback listener. */
export function browser(username: string, password: string, seen: { callbackStatus?: number; page?: string; url?: string }) {
  return async (url: string) => {
    seen.url = url;
    const page = await fetch(url);
    const html = await page.text();
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
    const form = new URLSearchParams();
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.set(m[1]!, unescape(m[2]!));
    form.set('username', username);
    form.set('password', password);
    const posted = await fetch(new URL('/oauth/authorize', url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: form.toString(),
      redirect: 'manual',
    });
    const location = posted.headers.get('location')!;
    expect(location.startsWith('http://127.0.0.1:')).toBe(true);
    // A forged redirect with another state is refused and does not end the real sign-in.
    const forged = new URL(location);
    forged.searchParams.set('state', 'forged');
    expect((await fetch(forged)).status).toBe(400);
    const callback = await fetch(location);
    seen.callbackStatus = callback.status;
    seen.page = await callback.text();
  };
}

