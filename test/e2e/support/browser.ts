import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, onTestFailed, expect } from 'vitest';
import { chromiumPath, hasChromium, launchChromium } from './chromium.js';

export { chromiumPath, hasChromium };

let browser: Browser | null = null;

/** One Chromium per e2e file, launched with the flags that keep it off the network (docs/architecture.md#how-it-is-tested). */
export function useBrowser(): () => Browser {
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    browser = null;
  });
  return () => browser!;
}

/**
 * A page that fails the test on any uncaught page error, and leaves a screenshot in test-results/
 * when the test fails.
 */
export async function openPage(b: Browser, url: string, name: string): Promise<{ page: Page; errors: string[] }> {
  const context = await b.newContext({ viewport: { width: 1200, height: 780 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  onTestFailed(async () => {
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: path.join('test-results', `${name.replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });
  await page.goto(url);
  return { page, errors };
}

/** axe-core: no serious or critical accessibility violation on what the page shows now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(bad).toEqual([]);
}
