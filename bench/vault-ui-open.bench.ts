import { line, median, percentile, type Bench } from './harness.js';
import { arm, missing, NOTES, withVaultPage } from './vault-ui-support.js';

const RUNS = 15;
const TARGET_MS = 100;

/** docs/memory.md#vault-upkeep: a click on a memory in the tree to its text shown, at 10,000 notes, in Chromium (target < 100 ms). */
const bench: Bench = {
  name: 'vault-ui-open',
  async run() {
    const why = missing();
    if (why) return { skipped: why };
    const times = await withVaultPage(async (page) => {
      await page.getByRole('button', { name: /^Vault/ }).click();
      const rows = page.locator('.tree-file');
      await rows.first().waitFor();
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A different memory each time (rows 2…16 on screen), so nothing is cached by the page.
        const row = rows.nth(i + 2);
        const title = (await row.locator('.tree-title').textContent()) ?? '';
        const measured = await arm(page, 'click', { selector: '.file-pane:has(.preview) #file-title', text: title });
        await row.click();
        await page.getByRole('heading', { name: title, level: 1 }).waitFor();
        runs.push(await measured());
      }
      return runs;
    });
    return [line('vault-ui-open', 'click-to-memory-shown', 'ms', median(times), null, { p95: percentile(times, 95), target: `< ${TARGET_MS} ms`, notes: NOTES })];
  },
};
export default bench;
