/** The small server-rendered sign-in page of the authorization endpoint (docs/sync-protocol.md), in the app's look. */
import { escapeHtml, standalonePage, standalonePageCsp } from '../../common/theme/standalone-page.js';

/** The OAuth parameters the form carries through the POST. */
export const authorizeParams = ['response_type', 'client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'] as const;

// form-action must allow the loopback redirect that follows the POST (browsers apply it to redirects).
export const signInPageCsp = standalonePageCsp("form-action 'self' http://127.0.0.1:*");

/**
 * The page: username + password, the OAuth parameters and the CSRF token as hidden fields. The keyboard
 * starts in the first field to fill: the username, or after a refusal (which keeps it) the password. A
 * refusal is an alert above the fields, which name it as their description.
 */
export function renderSignInPage(opts: { params: Record<string, string>; csrf: string; action: string; error?: string; username?: string }): string {
  const hidden = authorizeParams
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(opts.params[name] ?? '')}">`)
    .join('\n      ');
  const username = opts.username ?? '';
  const error = opts.error ? `<p class="error" role="alert" id="sign-in-error">${escapeHtml(opts.error)}</p>` : '';
  const described = opts.error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : '';
  return standalonePage(
    'Sign in to Strata team memory',
    `<p class="muted">The Strata app asks to sync your team’s memory with your account on this server.</p>
    ${error}
    <form method="post" action="${escapeHtml(opts.action)}">
      ${hidden}
      <input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
      <label for="username">Username</label>
      <input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(username)}"${username ? '' : ' autofocus'}${described}>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required${username ? ' autofocus' : ''}${described}>
      <button type="submit">Sign in</button>
    </form>`,
    'Sign in to team memory',
  );
}

/** A page for a request that cannot be redirected back (bad client or redirect URI, RFC 6749 §4.1.2.1). */
export function renderErrorPage(message: string): string {
  return standalonePage('Sign-in error', `<p class="error" role="alert">${escapeHtml(message)}</p>`);
}
