import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { startAppWithMemory } from './support/memory-project.js';
import { themedScreenshots } from './support/screenshots.js';

const memory = (i: number) => `---\nname: Note ${i}\ndescription: what note ${i} says\ntype: project\n---\n\nBody of note ${i}.\n`;
const FULL = 'It is not listed in MEMORY.md: the index is full, and the agent reads only its first 200 lines';

/** The project "atlas" with 200 memories, each with its line in MEMORY.md: the index is at its line cap. */
async function fullProject(): Promise<{ app: TestApp; dir: string; index: string }> {
  const { app, dir } = await startAppWithMemory('atlas');
  await Promise.all(Array.from({ length: 200 }, (_, i) => fs.writeFile(path.join(dir, `note-${i}.md`), memory(i))));
  const index = `${Array.from({ length: 200 }, (_, i) => `- [Note ${i}](note-${i}.md) — what note ${i} says`).join('\n')}\n`;
  await fs.writeFile(path.join(dir, 'MEMORY.md'), index);
  // In the vault's list now rather than when the watcher gets to them.
  const files = app.services.vault().files;
  const rel = path.relative(files.root, await fs.realpath(dir)).split(path.sep).join('/');
  await files.notice([...Array.from({ length: 200 }, (_, i) => `${rel}/note-${i}.md`), `${rel}/MEMORY.md`]);
  return { app, dir, index };
}

async function openVault(page: Page): Promise<void> {
  await page.locator('.project-item', { hasText: 'atlas' }).click();
  await page.getByRole('button', { name: /^Vault/ }).click();
  await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /^Note 1\b/ }).waitFor();
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);

/**
 * A memory the user writes or brings back while MEMORY.md is at its 200-line cap (docs/memory.md#memory-index):
 * the memory is written, the index is left as it is, and the toast says which cap stopped the line and
 * offers the tidy-up that makes room.
 */
describe.skipIf(!hasChromium)('a full MEMORY.md in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('New memory writes the file, leaves the index as it was, names the cap, and its "Tidy memory in the Inbox" opens the Inbox', async () => {
    const seeded = await fullProject();
    app = seeded.app;
    const { page, errors } = await openPage(browser(), app.host.url, 'memory-index-cap-new');
    await openVault(page);
    await page.getByRole('button', { name: 'New memory', exact: true }).click();
    await page.getByRole('heading', { name: 'New memory' }).waitFor();
    // As a person fills it: a click into each field, then the keys.
    await page.getByLabel('Name', { exact: true }).click();
    await page.keyboard.type('Launch day');
    await page.getByLabel('Description').click();
    await page.keyboard.type('the launch is on Friday');
    await page.getByLabel('Text', { exact: true }).click();
    await page.keyboard.type('The launch is on Friday, 11 December.');
    await page.getByRole('button', { name: 'Create memory' }).click();

    const toast = page.locator('.toast');
    await toast.getByText(`Saved “Launch day”. ${FULL}`).waitFor();
    expect(await fs.readFile(path.join(seeded.dir, 'launch-day.md'), 'utf8')).toContain('The launch is on Friday, 11 December.');
    expect(await fs.readFile(path.join(seeded.dir, 'MEMORY.md'), 'utf8')).toBe(seeded.index);
    await page.getByRole('heading', { name: 'Launch day', level: 1 }).waitFor();
    await expectAccessible(page, '.toast');
    // The pointer rests on the toast, as a person reading it would: it stays while held.
    await toast.hover();
    await themedScreenshots(page, 'memory-index-full-toast');

    await toast.getByRole('button', { name: 'Tidy memory in the Inbox' }).click();
    await page.getByRole('region', { name: 'Review inbox' }).getByRole('button', { name: 'Tidy memory now' }).waitFor();
    expect(await fs.readFile(path.join(seeded.dir, 'MEMORY.md'), 'utf8')).toBe(seeded.index);
    expect(errors).toEqual([]);
  });

  it('Undo of a delete brings the memory back without its line once the freed line is taken, and says so', async () => {
    const seeded = await fullProject();
    app = seeded.app;
    const { page, errors } = await openPage(browser(), app.host.url, 'memory-index-cap-undo');
    await openVault(page);
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Note 3\b/ }).click();
    await page.getByRole('heading', { name: 'Note 3', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const toast = page.locator('.toast');
    await toast.getByText('Deleted note-3.md.').waitFor();
    await toast.hover();
    await expect.poll(() => exists(path.join(seeded.dir, 'note-3.md'))).toBe(false);
    // Meanwhile another memory takes the freed line (written by the agent, or in an editor).
    await fs.writeFile(path.join(seeded.dir, 'note-200.md'), memory(200));
    await fs.appendFile(path.join(seeded.dir, 'MEMORY.md'), '- [Note 200](note-200.md) — what note 200 says\n');
    const full = await fs.readFile(path.join(seeded.dir, 'MEMORY.md'), 'utf8');
    expect(full.trimEnd().split('\n')).toHaveLength(200);
    expect(full).not.toContain('(note-3.md)');

    await toast.getByRole('button', { name: 'Undo' }).click();
    await toast.getByText(`Brought back note-3.md. ${FULL}`).waitFor();
    expect(await fs.readFile(path.join(seeded.dir, 'note-3.md'), 'utf8')).toBe(memory(3));
    expect(await fs.readFile(path.join(seeded.dir, 'MEMORY.md'), 'utf8')).toBe(full);
    await toast.getByRole('button', { name: 'Tidy memory in the Inbox' }).waitFor();
    expect(errors).toEqual([]);
  });
});
