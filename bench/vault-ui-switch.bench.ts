import { line, median, percentile, type Bench } from './harness.js';
import { arm, missing, NOTES, withVaultPage } from './vault-ui-support.js';

const RUNS = 15;
const TARGET_MS = 100;

/** docs/memory.md#vault-upkeep: the chat screen to the vault with its tree drawn, at 10,000 notes, in Chromium (target < 100 ms). */
const bench: Bench = {
  name: 'vault-ui-switch',
  async run() {
    const why = missing();
    if (why) return { skipped: why };
    const times = await withVaultPage(async (page) => {
      const vault = page.getByRole('button', { name: /^Vault/ });
      const chat = page.getByRole('button', { name: /^Chat/ });
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await chat.click();
        await page.locator('.vault-layout').waitFor({ state: 'detached' });
        const measured = await arm(page, 'click', { selector: '.tree-file' });
        await vault.click();
        runs.push(await measured());
      }
      return runs;
    });
    return [
      line('vault-ui-switch', 'chat-to-vault-tree-shown', 'ms', median(times), null, { p95: percentile(times, 95), target: `< ${TARGET_MS} ms`, notes: NOTES }),
    ];
  },
};
export default bench;
