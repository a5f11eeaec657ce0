import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';

const SLUG = '-work-history';
const TABS = '---\nname: Prefers tabs\ndescription: The user indents with tabs\ntype: user\n---\nUse tabs for indentation.\n';


/** History reads like a notes app: when and who, the version beside now, restore with Undo, at 1024 px. */
describe.skipIf(!hasChromium)('vault history in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('says when and who for each version, shows it beside the current text, restores with Undo, and fits 1024 px', async () => {
    const appData = await tempDir();
    const memory = path.join(appData, 'projects', SLUG, 'memory');
    await fs.mkdir(memory, { recursive: true });
    const file = path.join(memory, 'prefers-tabs.md');
    await fs.writeFile(file, TABS);
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, 'vault-history');
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: /Prefers tabs/ }).click();
    // A change made outside Strata, then one made here.
    await fs.writeFile(file, TABS.replace('indentation.', 'indentation, width 4.'));
    await page.getByText('width 4.').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Text of Prefers tabs').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Also in Makefiles.');
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('Also in Makefiles.');

    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('heading', { name: 'History of Prefers tabs' }).waitFor();
    const versions = page.getByRole('list', { name: 'Earlier versions' }).getByRole('button');
    await expect.poll(() => versions.allTextContents()).toEqual([
      // Who wrote that text, and what replaced it.
      expect.stringMatching(/^Today, .*An edit outside Strata · before your edit$/),
      expect.stringMatching(/^Today, .*Before a change made outside Strata$/),
    ]);
    expect((await page.locator('.history-panel').textContent()) ?? '').not.toMatch(/={3,}|saved [0-9a-f]{8}|bytes/);

    await versions.last().click();
    const then = page.getByLabel('This version', { exact: true });
    await then.waitFor();
    expect(await then.textContent()).toContain('Use tabs for indentation.');
    expect(await page.getByLabel('Now', { exact: true }).textContent()).toContain('Also in Makefiles.');
    // Nothing spills off the right edge at 1024 px.
    const overflow = await page.evaluate(() => {
      const main = document.querySelector('.vault-main')!;
      return { page: document.documentElement.scrollWidth - window.innerWidth, pane: main.scrollWidth - main.clientWidth };
    });
    expect(overflow.page).toBeLessThanOrEqual(0);
    expect(overflow.pane).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect.poll(() => fs.readFile(file, 'utf8')).toBe(TABS);
    await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('Also in Makefiles.');
    expect(errors).toEqual([]);
  });

  it('shows no conversation id: the editor puts words in place of the originSessionId line, History leaves it out, the file keeps it', async () => {
    const session = '3f6c2a1e-9b7d-4c55-8e21-5a0d7c9e4b12';
    const appData = await tempDir();
    const memory = path.join(appData, 'projects', SLUG, 'memory');
    await fs.mkdir(memory, { recursive: true });
    const file = path.join(memory, 'prefers-tabs.md');
    await fs.writeFile(file, TABS.replace('type: user\n', `type: user\noriginSessionId: ${session}\n`));
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, 'vault-origin-line');
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByLabel('Text of Prefers tabs');
    await editor.getByText('Written in a conversation (linked with this memory)').waitFor();
    expect(await editor.innerText()).not.toContain(session);
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Also in Makefiles.');
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('Also in Makefiles.');
    expect(await fs.readFile(file, 'utf8')).toContain(`originSessionId: ${session}\n`);
    await themedScreenshots(page, 'vault-origin-line-editor');

    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.getByRole('list', { name: 'Earlier versions' }).getByRole('button').first().click();
    await page.getByLabel('This version', { exact: true }).waitFor();
    expect(await page.locator('.history-panel').innerText()).not.toContain(session);
    expect(await page.getByLabel('Now', { exact: true }).textContent()).toContain('Also in Makefiles.');
    expect(errors).toEqual([]);
  });
});
