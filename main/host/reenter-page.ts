import { createHash } from 'node:crypto';
import { HOST_TOKEN_STORAGE_KEY } from '../../common/host-token.js';

/**
 * What `GET /` answers without this run's token (still a 403, docs/architecture.md#the-host). The app drops the
 * token from the address bar and keeps it in the tab's sessionStorage, so a reload (F5) arrives here
 * without it: this page re-enters with the stored token. A tab that never had the token (another
 * page, another browser) gets a one-line explanation and nothing of the app.
 */
const script = [
  `var k=${JSON.stringify(HOST_TOKEN_STORAGE_KEY)},t=null;`,
  'try{t=sessionStorage.getItem(k)}catch(e){}',
  "if(t&&!new URL(location.href).searchParams.has('token')){location.replace('/?token='+encodeURIComponent(t))}",
  "else{try{sessionStorage.removeItem(k)}catch(e){}document.getElementById('m').hidden=false}",
].join('');

const scriptHash = createHash('sha256').update(script).digest('base64');

export const reenterPage = {
  html: [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strata</title></head><body>',
    '<p id="m" hidden>This address needs the link <code>strata host</code> printed when it started (it carries the run’s token). Open that link again.</p>',
    '<noscript><p>Open the link <code>strata host</code> printed when it started.</p></noscript>',
    `<script>${script}</script></body></html>`,
  ].join(''),
  /** Only this page's own inline script may run; nothing else loads. */
  csp: [`default-src 'none'`, `script-src 'sha256-${scriptHash}'`, `base-uri 'none'`, `form-action 'none'`, `frame-ancestors 'none'`].join('; '),
};
