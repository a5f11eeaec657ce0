import type { Page } from 'playwright-core';
import { line, median, percentile, type Bench } from './harness.js';
import { arm, missing, NOTES, withVaultPage } from './vault-ui-support.js';

const RUNS = 10;
const OPEN_TARGET_MS = 300;
const SORT_TARGET_MS = 100;
const COUNT = `${NOTES.toLocaleString('en-US')} memories`;

/** The columns sorted in turn, each click a new order of all 10,000 rows (a second click on one reverses it). */
const SORTS = ['Times used', 'Last used', 'Type', 'Memory', 'Memory'];

/** The vault tree's own re-sort of the same 10,000 files (name ↔ updated): the baseline list, virtual already. */
async function treeSort(page: Page, to: 'name' | 'updated'): Promise<number> {
  const select = page.locator('.file-tree select');
  // Its first file in that order, read once unmeasured, is what ends the measurement.
  await select.selectOption(to);
  const first = page.locator('.tree-row:has(.tree-file)').first();
  const [title, index] = [(await first.locator('.tree-title').textContent()) ?? '', await first.getAttribute('data-index')];
  await select.selectOption(to === 'name' ? 'updated' : 'name');
  const measured = await arm(page, 'change', { selector: `.file-tree [data-index="${index}"] .tree-title`, text: title });
  await select.selectOption(to);
  return measured();
}

/**
 * docs/memory-upkeep.md#the-memory-table: the memory table at 10,000 memories in Chromium — a click on
 * "Memory table" to its rows and count shown (target < 300 ms), and a click on a column to the rows in
 * its order (target < 100 ms). Baselines in the same page: the vault tree over the same files, opened
 * (a click on Vault to its rows) and re-sorted (its Sort by).
 */
const bench: Bench = {
  name: 'vault-ui-table',
  async run() {
    const why = missing();
    if (why) return { skipped: why };
    const r = await withVaultPage(async (page) => {
      const treeOpen: number[] = [];
      const open: number[] = [];
      const sort: number[] = [];
      const treeSorts: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await page.getByRole('button', { name: /^Chat/ }).click();
        await page.locator('.file-tree').waitFor({ state: 'detached' });
        const tree = await arm(page, 'click', { selector: '.tree-file' });
        await page.getByRole('button', { name: /^Vault/ }).click();
        treeOpen.push(await tree());
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await page.locator('.memory-table-view').waitFor({ state: 'detached' });
        const table = await arm(page, 'click', { selector: '.table-count', text: COUNT });
        await page.getByRole('button', { name: 'Memory table' }).click();
        open.push(await table());
        await page.locator('.table-body [role="row"]').first().waitFor();
      }
      for (let i = 0; i < RUNS; i++) {
        const column = SORTS[i % SORTS.length]!;
        const header = page.getByRole('columnheader', { name: column, exact: false }).first();
        const before = await header.getAttribute('aria-sort');
        const after = before === 'ascending' ? 'descending' : 'ascending';
        const measured = await arm(page, 'click', { selector: `[role="columnheader"][aria-sort="${after}"]`, text: column });
        await header.getByRole('button').click();
        sort.push(await measured());
      }
      for (let i = 0; i < RUNS; i++) treeSorts.push(await treeSort(page, i % 2 === 0 ? 'updated' : 'name'));
      return { treeOpen, open, sort, treeSorts };
    });
    return [
      line('vault-ui-table', 'click-to-table-shown', 'ms', median(r.open), median(r.treeOpen), {
        p95: percentile(r.open, 95),
        baselineIs: 'click on Vault to its tree of the same files shown',
        target: `< ${OPEN_TARGET_MS} ms`,
        notes: NOTES,
      }),
      line('vault-ui-table', 'click-to-sorted-rows-shown', 'ms', median(r.sort), median(r.treeSorts), {
        p95: percentile(r.sort, 95),
        baselineIs: "the vault tree's re-sort of the same files (Sort by name / updated)",
        target: `< ${SORT_TARGET_MS} ms`,
        notes: NOTES,
      }),
    ];
  },
};
export default bench;
