import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, onTestFinished, expect } from 'vitest';
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
 * A page of its own browser context that fails the test on any uncaught page error, leaves a
 * screenshot and its DOM in test-results/ when the test fails, and is closed when the test ends.
 */
export async function openPage(b: Browser, url: string, name: string): Promise<{ page: Page; errors: string[] }> {
  // One locale on every machine: dates a test reads are in US English ("Jan 31, 2020"), whatever LANG says.
  const context = await b.newContext({ viewport: { width: 1200, height: 780 }, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // At the end of the test: the evidence when it failed, then the context goes, so no page of an
  // ended test keeps reconnecting to its closed host (or to a later test's host on the same port).
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') {
      mkdirSync('test-results', { recursive: true });
      const file = path.join('test-results', name.replace(/\W+/g, '-'));
      await page.screenshot({ path: `${file}.png` }).catch(() => undefined);
      // The DOM as it was: which screen, which element was missing or replaced.
      const html = await page.content().catch(() => null);
      if (html !== null) writeFileSync(`${file}.html`, html);
    }
    await context.close().catch(() => undefined);
  });
  await page.goto(url);
  return { page, errors };
}

/** axe-core: no serious or critical accessibility violation on what the page shows now (or within `include`, a selector). */
export async function expectAccessible(page: Page, include?: string): Promise<void> {
  const axe = new AxeBuilder({ page });
  const results = await (include ? axe.include(include) : axe).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(bad).toEqual([]);
}
