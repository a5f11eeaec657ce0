import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppFailure } from '../../../common/result.js';
import { escapeHtml, standalonePage, standalonePageCsp } from '../../../common/theme/standalone-page.js';

/** The loopback redirect receiver of RFC 8252 §7.3: 127.0.0.1, any free port, path `/callback`. */
export interface LoopbackListener {
  redirectUri: string;
  /** The authorization code; a decline, a refusal, the timeout or the abort rejects with an `AppFailure`. */
  waitForCode(timeoutMs: number, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** The page the browser shows at the end of a sign-in, in the app's look; it needs nothing but its own style. */
const headers = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': standalonePageCsp(), 'cache-control': 'no-store' };
const page = (title: string, text: string) => standalonePage(title, `<p>${escapeHtml(text)}</p>`);

/**
 * Waits for the authorization server's redirect. A request with the wrong `state` (a forged or stale
 * redirect, RFC 6749 §10.12) is answered 400 and ignored, so it cannot end the user's real sign-in.
 */
export async function startLoopbackListener(expectedState: string): Promise<LoopbackListener> {
  // The first outcome wins; a later redirect, timeout or abort changes nothing.
  let settled = false;
  let resolveCode: (code: string) => void = () => undefined;
  let rejectCode: (failure: AppFailure) => void = () => undefined;
  const outcome = new Promise<string>((resolve, reject) => {
    resolveCode = resolve;
    rejectCode = reject;
  });
  // Nobody may be waiting yet when the browser answers; the rejection is read by `waitForCode`.
  outcome.catch(() => undefined);
  const settle = (result: string | AppFailure) => {
    if (settled) return;
    settled = true;
    if (result instanceof AppFailure) rejectCode(result);
    else resolveCode(result);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    if (url.searchParams.get('state') !== expectedState) {
      res.writeHead(400, headers).end(page('Sign-in not recognised', 'This sign-in link does not belong to the running Strata sign-in.'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      res.writeHead(200, headers).end(page('Sign-in cancelled', 'You can close this tab and try again from Strata.'));
      settle(new AppFailure('permission_denied', error === 'access_denied' ? 'the sign-in was declined' : `the team server refused the sign-in (${error ?? 'no code'})`));
      return;
    }
    res.writeHead(200, headers).end(page('Signed in to Strata', 'You can close this tab and return to Strata.'));
    settle(code);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    waitForCode(timeoutMs, signal) {
      const timer = setTimeout(() => settle(new AppFailure('io_error', 'the sign-in timed out; try again')), timeoutMs);
      signal?.addEventListener('abort', () => settle(new AppFailure('invalid_request', 'the sign-in was cancelled')), { once: true });
      return outcome.finally(() => clearTimeout(timer));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
