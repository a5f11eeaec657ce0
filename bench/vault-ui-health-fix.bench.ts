import { line, median, type Bench } from './harness.js';
import { healthFixVault, LISTED, MEMORIES } from './health-fix-fixture.js';
import { arm, missing, withVaultPage } from './vault-ui-support.js';

const RUNS = 3;
const FRESH = '.health-panel:not(:has(p[role="status"].muted))';

/**
 * docs/memory.md#vault-upkeep: in Chromium, a click on Health's "Fix all 9,810" (10,000 memories in one
 * project, the user's 190-line MEMORY.md) to its result on screen, and a click on its Undo to "Undone".
 * The baseline, in the same page: a click on Health to its fresh report (one check), which the fix
 * runs too before it writes.
 */
const bench: Bench = {
  name: 'vault-ui-health-fix',
  async run() {
    const why = missing();
    if (why) return { skipped: why };
    const { root } = await healthFixVault();
    const label = `Fix all ${(MEMORIES - LISTED).toLocaleString('en-US')}`;
    const runs = await withVaultPage(async (page) => {
      const result = { report: [] as number[], note: [] as number[], undo: [] as number[] };
      await page.getByRole('button', { name: /^Vault/ }).click();
      for (let i = 0; i < RUNS; i++) {
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.locator('.health-panel').waitFor({ state: 'detached' });
        const report = await arm(page, 'click', { selector: FRESH });
        await page.getByRole('button', { name: 'Health', exact: true }).click();
        result.report.push(await report());
        const fixAll = page.getByRole('button', { name: label });
        await fixAll.waitFor({ timeout: 60_000 });
        const note = await arm(page, 'click', { selector: '.health-note.warning', text: 'did not fit' });
        await fixAll.click();
        result.note.push(await note());
        // The check after the fix on screen (the full index's rows wait for a tidy-up) before Undo is clicked.
        await page.locator(FRESH).filter({ hasText: 'wait for room in a full index' }).waitFor({ timeout: 60_000 });
        const undo = await arm(page, 'click', { selector: '.health-note.ok', text: 'Undone' });
        await page.locator('.health-note').getByRole('button', { name: 'Undo' }).click();
        result.undo.push(await undo());
        await page.getByRole('button', { name: label }).waitFor({ timeout: 60_000 });
      }
      return result;
    }, root);
    const extra = { memories: MEMORIES, missing: MEMORIES - LISTED, baselineIs: 'click on Health to its fresh report, same page' };
    return [
      line('vault-ui-health-fix', 'click-fix-all-to-result-shown', 'ms', median(runs.note), median(runs.report), extra),
      line('vault-ui-health-fix', 'click-undo-to-undone-shown', 'ms', median(runs.undo), median(runs.report), extra),
    ];
  },
};
export default bench;
