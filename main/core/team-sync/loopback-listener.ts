import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { err, ok, type Result } from '../../../common/result.js';

/** The loopback redirect receiver of RFC 8252 §7.3: 127.0.0.1, any free port, path `/callback`. */
export interface LoopbackListener {
  redirectUri: string;
  waitForCode(timeoutMs: number, signal?: AbortSignal): Promise<Result<string>>;
  close(): Promise<void>;
}

const page = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:system-ui;margin:4rem"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * Waits for the authorization server's redirect. A request with the wrong `state` (a forged or stale
 * redirect, RFC 6749 §10.12) is answered 400 and ignored, so it cannot end the user's real sign-in.
 */
export async function startLoopbackListener(expectedState: string): Promise<LoopbackListener> {
  let settle: (result: Result<string>) => void = () => undefined;
  const outcome = new Promise<Result<string>>((resolve) => {
    settle = resolve;
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    if (url.searchParams.get('state') !== expectedState) {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end(page('Sign-in not recognised', 'This sign-in link does not belong to the running Strata sign-in.'));
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Sign-in cancelled', 'You can close this tab and try again from Strata.'));
      settle(err('permission_denied', error === 'access_denied' ? 'the sign-in was declined' : `the team server refused the sign-in (${error ?? 'no code'})`));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Signed in to Strata', 'You can close this tab and return to Strata.'));
    settle(ok(code));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    waitForCode(timeoutMs, signal) {
      const timer = setTimeout(() => settle(err('io_error', 'the sign-in timed out; try again')), timeoutMs);
      signal?.addEventListener('abort', () => settle(err('invalid_request', 'the sign-in was cancelled')), { once: true });
      return outcome.finally(() => clearTimeout(timer));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
