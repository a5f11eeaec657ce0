import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createServices } from '../main/core/services.js';
import { createDispatcher } from '../main/core/ipc/dispatcher.js';
import { createHandlers } from '../main/core/ipc/handlers.js';
import { startHost } from '../main/host/host-server.js';
import { silentLogger } from '../main/core/ports.js';
import { hasChromium, launchChromium } from '../test/e2e/support/chromium.js';
import { generatedVault, NOTES } from './vault-fixture.js';

export { NOTES };
const rendererDir = path.resolve('dist/renderer');

/** Why a `vault-ui-*` bench cannot run here, or null. */
export function missing(): string | null {
  if (!hasChromium) return 'Chromium is not installed (scripts/install-system-deps.sh)';
  if (!existsSync(path.join(rendererDir, 'index.html'))) return 'the renderer is not built (npm run bench builds it; node scripts/build.mjs)';
  return null;
}

/** `strata host` in this process over the services, quiet (the benches' pages talk to it). */
export function hostFor(services: Awaited<ReturnType<typeof createServices>>) {
  return startHost({
    rendererDir,
    dispatch: createDispatcher(createHandlers(services, 'host'), silentLogger),
    events: services.events,
    logger: silentLogger,
  });
}

/**
 * `strata host` over the 10,000-note vault (or `vaultRoot`), and Chromium at 1280×800 on it, on the chat screen with
 * the vault's file list already loaded once (the app loads it at start). Everything is measured in
 * the page, from the click or keystroke to the frame that shows the result.
 */
export async function withVaultPage<T>(fn: (page: Page) => Promise<T>, vaultRoot?: string): Promise<T> {
  const root = vaultRoot ?? (await generatedVault());
  const appData = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-ui-'));
  const services = await createServices({ appDataDir: appData, vaultRoot: root, shell: 'host', logger: silentLogger, env: {} });
  await services.vault().ready;
  const host = await hostFor(services);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.locator('.tree-file').first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: /^Chat/ }).click();
    return await fn(page);
  } finally {
    await browser.close();
    await host.close();
    await services.close();
    await fs.rm(appData, { recursive: true, force: true });
  }
}

/** What ends a measurement: an element matching `selector` (whose text contains `text`, if given) is on screen. */
export interface Until {
  selector: string;
  text?: string;
  /** The element's `data-query` must equal the search box's value (the results are for what was typed). */
  matchesSearchBox?: boolean;
}

/**
 * Arms a measurement in the page: from the next `click`, `keydown` or `change` (its event time) to the first
 * animation frame after `until` holds. Returns a function that resolves to the milliseconds.
 */
export async function arm(page: Page, event: 'click' | 'keydown' | 'change', until: Until): Promise<() => Promise<number>> {
  await page.evaluate(`(${IN_PAGE})(${JSON.stringify(event)}, ${JSON.stringify(until)})`);
  return () => page.evaluate('window.__measured') as Promise<number>;
}

/** The page side of `arm` (page code, kept as text: the bench's TypeScript has no DOM). */
const IN_PAGE = `(event, until) => {
  window.__measured = new Promise((resolve) => {
    const holds = () => [...document.querySelectorAll(until.selector)].some((el) =>
      (until.text === undefined || (el.textContent || '').includes(until.text)) &&
      (!until.matchesSearchBox || el.dataset.query === (document.querySelector('#vault-search')?.value ?? '')));
    const start = (e) => {
      const t0 = e.timeStamp;
      const observer = new MutationObserver(() => check());
      const check = () => {
        if (!holds()) return;
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - t0));
      };
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      // The event's own handlers run after this capture listener: check once they did.
      setTimeout(check, 0);
    };
    document.addEventListener(event, start, { capture: true, once: true });
  });
}`;
