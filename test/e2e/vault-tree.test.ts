import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';

const SLUG = '-work-many';
const COUNT = 600;


/** The vault at scale: a virtual tree in natural order, groups that collapse and stay so, search that counts. */
describe.skipIf(!hasChromium)('the vault tree at scale in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  async function open(name: string) {
    const appData = await tempDir();
    const memory = path.join(appData, 'projects', SLUG, 'memory');
    await fs.mkdir(memory, { recursive: true });
    await Promise.all(
      Array.from({ length: COUNT }, (_, i) =>
        fs.writeFile(path.join(memory, `note-${i}.md`), `---\nname: note ${i}\ndescription: garden note ${i}\ntype: project\n---\nThe garden, part ${i}.\n`),
      ),
    );
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.locator('.tree-file').first().waitFor();
    return { page, errors };
  }

  it('draws only the rows on screen, in natural order, and scrolls to the end', async () => {
    const { page, errors } = await open('tree-virtual');
    const titles = () => page.locator('.tree-file .tree-title').allTextContents();
    expect((await titles()).slice(0, 4)).toEqual(['note 0', 'note 1', 'note 2', 'note 3']);
    expect(await page.locator('.tree-file').count()).toBeLessThan(80);
    // Numbers sort by value: note 9 before note 10 (a plain string sort puts note 10 first).
    await page.locator('.tree-scroll').evaluate((el) => el.scrollBy(0, 300));
    await expect.poll(titles).toContain('note 10');
    const seen = await titles();
    expect(seen.indexOf('note 9')).toBeLessThan(seen.indexOf('note 10'));
    await page.locator('.tree-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(titles).toContain(`note ${COUNT - 1}`);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  it('collapses a group from its heading, and it stays collapsed after a reload', async () => {
    const { page } = await open('tree-collapse');
    const group = page.getByRole('button', { name: /^work-many/ });
    await group.click();
    expect(await group.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('.tree-file').count()).toBeLessThan(3);
    await page.reload();
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: /^work-many/ }).waitFor();
    expect(await page.getByRole('button', { name: /^work-many/ }).getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: /^work-many/ }).click();
    await page.locator('.tree-file', { hasText: 'note 0' }).first().waitFor();
  });

  it('says how many results it shows, and Show more brings the next ones', async () => {
    const { page } = await open('tree-search');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Search text').fill('garden');
    await page.getByText('Showing the first 20 results; more match.').waitFor();
    expect(await page.locator('.results .result').count()).toBe(20);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByText('Showing the first 40 results; more match.').waitFor();
    expect(await page.locator('.results .result').count()).toBe(40);
    await page.getByLabel('Search text').fill('part 599');
    await page.getByText(/^\d+ results?\.$/).waitFor();
  });
});
