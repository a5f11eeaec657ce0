import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MemoryUsageStore } from '../../main/core/auto-memory/memory-usage.js';
import { closeAfterEach, type TestApp } from './support/app.js';
import { startAppWithMemory } from './support/memory-project.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';

const MANY = 2_000;
const memory = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;
/** Note 0001 … note 2000, and three that the word filter must find or leave out. */
const special: Record<string, string> = {
  'outage.md': memory('Outage review', 'What the incidents taught us', 'Incident 99 took the checkout down.'),
  'offsite.md': memory('Offsite', 'The team met at the Café Flore', 'Incident 99 was the talk of it.'),
  'balloons.md': memory('Party', 'Launch party', '99 balloons, no incident report.'),
  'pricing.md': memory('Pricing', 'Incident pricing notes', 'Nothing numbered here.'),
};

/** Whether the page or the table scrolls sideways, and whether every header cell is inside the table's box. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const scroller = document.querySelector('.table-scroll')!;
    const box = scroller.getBoundingClientRect();
    const cut = Array.from(document.querySelectorAll('[role="columnheader"]')).filter((h) => h.getBoundingClientRect().right > box.right + 0.5).map((h) => h.textContent);
    return { page: document.documentElement.scrollWidth > window.innerWidth, table: scroller.scrollWidth > scroller.clientWidth, cut };
  });

describe.skipIf(!hasChromium)('the memory table with many memories', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('draws only the rows on screen, sorts correctly, filters by words as vault search does, fits at 1280 and 1024, keeps the chosen columns and works from the keyboard', async () => {
    const started = await startAppWithMemory('atlas');
    app = started.app;
    const { dir } = started;
    const vault = app.services.vault();
    const files = Object.entries(special);
    for (let i = 1; i <= MANY; i++) files.push([`note-${i}.md`, memory(`Note ${i}`, `Fact number ${i}`, `Kiwis ${i}.`)]);
    for (let k = 0; k < files.length; k += 200) await Promise.all(files.slice(k, k + 200).map(([name, text]) => fs.writeFile(path.join(dir, name), text)));
    const usage = MemoryUsageStore.forVault(vault.root, { now: () => Date.now() });
    for (let n = 0; n < 3; n++) await usage.record([path.join(dir, 'note-1500.md')], 's1');
    await usage.record([path.join(dir, 'note-7.md'), path.join(dir, 'note-1500.md')], 's1');
    const total = MANY + Object.keys(special).length;
    await expect.poll(() => vault.files.list().filter((f) => f.scope === 'project-memory').length, { timeout: 60_000 }).toBe(total);

    const { page, errors } = await openPage(browser(), app.host.url, 'memory-table-many');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: 'Memory table' }).click();
    const status = page.locator('.table-count');
    await expect.poll(() => status.textContent()).toBe(`${total.toLocaleString()} memories`);
    const body = page.getByRole('table', { name: 'Memories' }).locator('.table-body');
    const names = () => body.locator('[role="row"] [data-control="open"]').allTextContents();
    // Virtualized: a screenful of rows in the DOM, not 2,004; and in natural name order (Note 2 before Note 10).
    expect(await body.getByRole('row').count()).toBeLessThan(40);
    expect((await names()).slice(0, 4)).toEqual(['Note 1', 'Note 2', 'Note 3', 'Note 4']);
    expect(await page.getByRole('table', { name: 'Memories' }).getAttribute('aria-rowcount')).toBe(String(total + 1));

    // Sorted by a click on a column, then again by the keyboard on its header: most used first, ties in name order.
    const times = page.getByRole('columnheader', { name: 'Times used' });
    await times.getByRole('button').click();
    await expect(times.getAttribute('aria-sort')).resolves.toBe('ascending');
    await times.getByRole('button').press('Enter');
    await expect.poll(() => times.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await names()).slice(0, 4)).toEqual(['Note 1500', 'Note 7', 'Note 1', 'Note 2']);
    const memoryHeader = page.getByRole('columnheader', { name: 'Memory' });
    await memoryHeader.getByRole('button').press('Enter');
    await memoryHeader.getByRole('button').press('Enter');
    await expect.poll(() => memoryHeader.getAttribute('aria-sort')).toBe('descending');
    expect((await names()).slice(0, 3)).toEqual(['Pricing', 'Party', 'Outage review']);

    // Keys: down a row, then End to the last of 2,004 (drawn on the way), Space ticks it.
    await body.getByRole('button', { name: 'Pricing', exact: true }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Party');
    await page.keyboard.press('End');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Note 1');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    await expect.poll(() => status.textContent()).toBe(`${total.toLocaleString()} memories, 1 selected`);
    expect(await body.getByRole('row').count()).toBeLessThan(40);
    await page.keyboard.press('Home');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.ariaLabel)).toBe('Select Pricing');
    // A sort from far down the list shows the new order from its top.
    await page.keyboard.press('End');
    await expect.poll(() => page.locator('.table-scroll').evaluate((e) => e.scrollTop)).toBeGreaterThan(10_000);
    await times.getByRole('button').click();
    await expect.poll(() => page.locator('.table-scroll').evaluate((e) => e.scrollTop)).toBe(0);
    await expect.poll(async () => (await names()).slice(0, 2)).toEqual(['Note 1', 'Note 2']);

    // Words through the search engine: stems ("incidents"), accents ("cafe"), every word held.
    const filter = page.getByRole('searchbox', { name: 'Filter by words' });
    await filter.fill('incident 99');
    await expect.poll(async () => (await names()).sort()).toEqual(['Offsite', 'Outage review', 'Party']);
    await filter.fill('cafe flore');
    await expect.poll(names).toEqual(['Offsite']);
    await filter.fill('kiwis 1234');
    await expect.poll(names).toEqual(['Note 1234']);
    await filter.fill('incident zebra');
    await page.getByText('No memory matches “incident zebra”.').waitFor();
    await expectAccessible(page);
    await themedScreenshots(page, 'memory-table-no-match');
    await page.getByRole('button', { name: 'Show all memories' }).click();
    await expect.poll(() => status.textContent()).toBe(`${total.toLocaleString()} memories, 1 selected`);

    // The default columns fit beside the sidebars: no sideways scroll at 1280 or at 1024.
    for (const [w, h] of [[1280, 800], [1024, 700]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await expect.poll(() => overflow(page)).toEqual({ page: false, table: false, cut: [] });
    }
    await themedScreenshots(page, 'memory-table-many');

    // The chosen columns are kept: Tokens and Origin on, a reload, the table again.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Tokens', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Origin', exact: true }).check();
    await expectAccessible(page);
    await themedScreenshots(page, 'memory-table-columns');
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Origin' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: 'Memory table' }).click();
    await expect.poll(() => page.getByRole('columnheader').allTextContents()).toEqual(['', 'Memory ▴', 'Type', 'Last used', 'Times used', 'Tokens', 'Origin']);
    expect(await body.getByRole('row').count()).toBeLessThan(40);
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('button', { name: 'Default columns' }).click();
    await expect.poll(() => page.getByRole('columnheader').allTextContents()).toEqual(['', 'Memory ▴', 'Type', 'Last used', 'Times used']);
    expect(errors).toEqual([]);
  });
});
