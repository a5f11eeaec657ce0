import path from 'node:path';
import type { Page } from 'playwright-core';

/** The page at 1280×800 and 1024×700, light and dark, as `docs/screenshots/<name>-<w>x<h>-<theme>.png`. */
export async function themedScreenshots(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    for (const [w, h] of [[1280, 800], [1024, 700]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: path.join('docs', 'screenshots', `${name}-${w}x${h}-${theme}.png`) });
    }
  }
  await page.evaluate(() => delete document.documentElement.dataset.theme);
}
