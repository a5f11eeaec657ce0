import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';

const SLUG = '-work-notes';
const TABS = '---\nname: Prefers tabs\ndescription: The user indents with tabs\ntype: user\n---\nUse tabs for indentation.\n\nAlso in Makefiles.\n';
const FRIDAY = '---\nname: No Friday deploys\ndescription: Deploys are frozen on Fridays\ntype: project\n---\nNever deploy on a Friday.\n';


/** The vault never loses an edit: autosave, save on leaving, and merge with changes made on disk. */
describe.skipIf(!hasChromium)('vault autosave in Chromium', () => {
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
    await fs.writeFile(path.join(memory, 'MEMORY.md'), '- [Prefers tabs](prefers-tabs.md) — tabs\n- [No Friday deploys](deploy-friday.md) — frozen\n');
    await fs.writeFile(path.join(memory, 'prefers-tabs.md'), TABS);
    await fs.writeFile(path.join(memory, 'deploy-friday.md'), FRIDAY);
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).waitFor();
    const tabs = path.join(memory, 'prefers-tabs.md');
    return { page, errors, tabs };
  }

  async function editTabs(page: Page) {
    await page.getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByLabel('Text of Prefers tabs');
    await editor.click();
    return editor;
  }

  const read = (file: string) => fs.readFile(file, 'utf8');

  it('saves by itself shortly after typing stops, and says so', async () => {
    const { page, tabs, errors } = await open('autosave-idle');
    await editTabs(page);
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Even in Go.');
    await expect.poll(() => read(tabs), { timeout: 5_000 }).toContain('Even in Go.');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.keyboard.type(' And in Rust.');
    await expect.poll(() => read(tabs), { timeout: 5_000 }).toContain('Even in Go. And in Rust.');
    // Two autosaves, one history entry: the version from before the burst.
    const versions = await app!.services.vault().files.timeline(`projects/${SLUG}/memory/prefers-tabs.md`);
    expect(versions.map((v) => v.reason)).toEqual(['autosave']);
    expect(errors).toEqual([]);
  });

  it('type in a memory, click another file at once: the text is on disk', async () => {
    const { page, tabs } = await open('autosave-navigate');
    await editTabs(page);
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Typed just before leaving.');
    await page.getByRole('button', { name: /No Friday deploys/ }).click();
    await page.getByRole('heading', { name: 'No Friday deploys', level: 1 }).waitFor();
    await expect.poll(() => read(tabs), { timeout: 3_000 }).toContain('Typed just before leaving.');
    // And coming back shows it.
    await page.getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByText('Typed just before leaving.').waitFor();
  });

  it('type in the Description field, Ctrl+S: saved', async () => {
    const { page, tabs } = await open('autosave-description');
    await editTabs(page);
    const description = page.getByLabel('Description', { exact: true });
    await description.fill('The user indents with tabs: everywhere, always');
    // Whether the page took Ctrl+S (not the browser's "Save page"): seen after every handler ran.
    await page.evaluate(() => {
      window.addEventListener('keydown', (e) => {
        if (e.ctrlKey && e.key === 's') (window as unknown as { ctrlS?: boolean }).ctrlS = e.defaultPrevented;
      });
    });
    await page.keyboard.press('Control+s');
    expect(await page.evaluate(() => (window as unknown as { ctrlS?: boolean }).ctrlS)).toBe(true);
    // A value with ": " in it is quoted, so strict YAML reads it back.
    await expect.poll(() => read(tabs), { timeout: 5_000 }).toContain('description: "The user indents with tabs: everywhere, always"');
    expect(await description.inputValue()).toBe('The user indents with tabs: everywhere, always');
  });

  it('type, close the tab at once: the text is on disk', async () => {
    const { page, tabs } = await open('autosave-close');
    await editTabs(page);
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Written as the tab closed.');
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => read(tabs), { timeout: 3_000 }).toContain('Written as the tab closed.');
  });

  it('an external write to another line during an unsaved edit: both changes end up in the file', async () => {
    const { page, tabs } = await open('autosave-merge');
    await editTabs(page);
    // The other writer lands while the edit is unsaved: whichever comes first — the change event or
    // the autosave finding the file changed — merges the two.
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Mine: even in Go.');
    await fs.writeFile(tabs, TABS.replace('Use tabs for indentation.', 'Use tabs for indentation, width 4.'));
    await page.getByText('Use tabs for indentation, width 4.').waitFor({ timeout: 10_000 });
    await expect.poll(() => read(tabs), { timeout: 5_000 }).toContain('Mine: even in Go.');
    const text = await read(tabs);
    expect(text).toContain('Use tabs for indentation, width 4.');
    expect(text).toContain('Also in Makefiles.');
    // The merge came in as a change: the cursor and focus stayed, so typing simply goes on.
    await page.keyboard.type(' Still typing.');
    await expect.poll(() => read(tabs), { timeout: 5_000 }).toContain('Mine: even in Go. Still typing.');
    expect(await read(tabs)).toContain('Use tabs for indentation, width 4.');
  });

  it('an external write to the same line: both versions are shown side by side, nothing lost', async () => {
    const { page, tabs } = await open('autosave-conflict');
    await editTabs(page);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.type(' Mine.');
    const external = TABS.replace('Also in Makefiles.', 'Also in Makefiles. Theirs.');
    await fs.writeFile(tabs, external);
    const banner = page.getByRole('alert').filter({ hasText: 'changed on disk' });
    await banner.waitFor({ timeout: 10_000 });
    expect(await page.getByLabel('My version (editable result)').textContent()).toContain('Also in Makefiles. Mine.');
    expect(await page.getByLabel('Their version').textContent()).toContain('Also in Makefiles. Theirs.');
    // Nothing was written over: the file still holds the other writer's version.
    expect(await read(tabs)).toBe(external);
    await banner.getByRole('button', { name: 'Keep my version' }).click();
    await expect.poll(() => read(tabs)).toContain('Also in Makefiles. Mine.');
    // The other version stays in History.
    const rel = `projects/${SLUG}/memory/prefers-tabs.md`;
    const vault = app!.services.vault().files;
    const versions = await vault.timeline(rel);
    const texts = await Promise.all(versions.map(async (v) => (await vault.readVersion(rel, v.hash)).text));
    expect(texts).toContain(external);
  });

  it('a save that fails keeps the text with a clear error, and retries until it lands', async () => {
    const { page, tabs } = await open('autosave-fail');
    await editTabs(page);
    // A folder where the file was: the write is refused (as a full disk or a permission would be).
    const aside = `${tabs}.aside`;
    await fs.rename(tabs, aside);
    await fs.mkdir(tabs);
    try {
      await page.keyboard.press('Control+End');
      await page.keyboard.type('Kept while the disk says no.');
      await page.getByRole('alert').filter({ hasText: 'Not saved yet' }).waitFor({ timeout: 5_000 });
      await page.getByText('Kept while the disk says no.').waitFor();
    } finally {
      await fs.rmdir(tabs);
      await fs.rename(aside, tabs);
    }
    await expect.poll(() => read(tabs), { timeout: 10_000 }).toContain('Kept while the disk says no.');
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  });
});
