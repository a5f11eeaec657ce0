import path from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Where a screenshot of the docs goes: into `docs/` when `npm run screenshots` asks for it
 * (STRATA_DOCS_SCREENSHOTS=1), else under `test-results/docs/` — a plain `npm test` still takes and
 * checks the shots but never rewrites the committed images.
 */
export function docsShot(relative: string): string {
  return path.join(process.env.STRATA_DOCS_SCREENSHOTS === '1' ? 'docs' : path.join('test-results', 'docs'), relative);
}

/** The page at 1280×800 and 1024×700, light and dark, as `docs/screenshots/<name>-<w>x<h>-<theme>.png`. */
export async function themedScreenshots(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    for (const [w, h] of [[1280, 800], [1024, 700]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: docsShot(path.join('screenshots', `${name}-${w}x${h}-${theme}.png`)) });
    }
  }
  await page.evaluate(() => delete document.documentElement.dataset.theme);
}
