import { paletteCss } from './palette.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to put between tags or in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c]!);
}

/**
 * How the app's buttons, fields and notices look (renderer/src/styles.css), for a page on its own: one
 * card on the app's soft background.
 */
const pageCss = `
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: start center; padding: 12vh 1rem 2rem;
  font: 15px/1.5 var(--font); background: var(--bg-soft); color: var(--fg); }
main { width: min(24rem, 100%); background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius);
  padding: 1.5rem 1.75rem 1.75rem; box-shadow: 0 8px 28px rgb(0 0 0 / 0.08); }
.brand { font-weight: 700; letter-spacing: 0.02em; margin: 0 0 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 0.5rem; }
p { margin: 0.5rem 0; }
.muted { color: var(--fg-muted); }
label { display: block; font-weight: 500; margin: 1rem 0 0.25rem; }
input { width: 100%; font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--border);
  border-radius: 6px; padding: 0.5rem 0.65rem; }
input[aria-invalid='true'] { border-color: var(--danger); }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button { width: 100%; margin-top: 1.5rem; font: inherit; font-weight: 600; padding: 0.55rem 1rem; border-radius: 6px; cursor: pointer;
  background: var(--accent); color: var(--accent-fg); border: 1px solid var(--accent); }
.error { margin: 1rem 0 0; padding: 0.6rem 0.8rem; border-radius: 6px; border: 1px solid var(--danger); color: var(--fg);
  background: color-mix(in srgb, var(--danger) 12%, var(--bg)); }
`;

/** The Content-Security-Policy of such a page: its own inline style, nothing else unless `extra` allows it. */
export const standalonePageCsp = (extra = ''): string =>
  `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'${extra ? `; ${extra}` : ''}`;

/**
 * A whole HTML page in the app's look: the brand, `heading` (the tab's `title` unless given), and `body`
 * (HTML the caller has escaped). Light or dark as the system is.
 */
export function standalonePage(title: string, body: string, heading = title): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>${escapeHtml(title)}</title>
  <style>
${paletteCss()}${pageCss}  </style>
</head>
<body>
  <main>
    <p class="brand">Strata</p>
    <h1>${escapeHtml(heading)}</h1>
    ${body}
  </main>
</body>
</html>
`;
}
