/** The small server-rendered sign-in page of the authorization endpoint (docs/sync-protocol.md). */

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]!);
}

/** The OAuth parameters the form carries through the POST. */
export const authorizeParams = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'] as const;

// form-action must allow the loopback redirect that follows the POST (browsers apply it to redirects).
export const signInPageCsp =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:*; frame-ancestors 'none'; base-uri 'none'";

/** The page: username + password, the OAuth parameters and the CSRF token as hidden fields. */
export function renderSignInPage(opts: { params: Record<string, string>; csrf: string; action: string; error?: string; username?: string }): string {
  const hidden = authorizeParams
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(opts.params[name] ?? '')}">`)
    .join('\n      ');
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Sign in to Strata team memory</title>
  <style>
    body { font: 16px system-ui, sans-serif; max-width: 22rem; margin: 4rem auto; padding: 0 1rem; color: #1f2328; }
    label { display: block; margin-top: 1rem; }
    input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; }
    button { margin-top: 1.5rem; padding: .5rem 1rem; font: inherit; }
    .error { color: #b42318; }
  </style>
</head>
<body>
  <main>
    <h1>Sign in</h1>
    <p>The Strata app asks to sync team memory with your account.</p>
    ${error}
    <form method="post" action="${escapeHtml(opts.action)}">
      ${hidden}
      <input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
      <label for="username">Username</label>
      <input id="username" name="username" type="text" autocomplete="username" required value="${escapeHtml(opts.username ?? '')}">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit">Sign in</button>
    </form>
  </main>
</body>
</html>
`;
}

/** A page for a request that cannot be redirected back (bad client or redirect URI, RFC 6749 §4.1.2.1). */
export function renderErrorPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>
<body><main><h1>Sign-in error</h1><p>${escapeHtml(message)}</p></main></body></html>
`;
}
