import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';

const memory = (i: number) => `---\nname: Note ${i}\ndescription: what note ${i} says\ntype: project\n---\n\nBody of note ${i}.\n`;
const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length;

/**
 * A project whose memory folder has `listed` memories in the user's own MEMORY.md (a heading, then a
 * line each) and `unlisted` more that the index does not name.
 */
async function seed(app: TestApp, listed: number, unlisted: number): Promise<{ dir: string; index: string }> {
  const project = path.join(await tempDir('strata-e2e-health-cap-'), 'atlas');
  await prepareChat(app.services, { project, baseUrl: 'http://127.0.0.1:9' });
  const dir = await memoryDirOf(app.services, project);
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(Array.from({ length: listed + unlisted }, (_, i) => fs.writeFile(path.join(dir, `note-${i}.md`), memory(i))));
  const index = `# What I keep\n${Array.from({ length: listed }, (_, i) => `- [Mine ${i}](note-${i}.md) — my own words for ${i}`).join('\n')}\n`;
  await fs.writeFile(path.join(dir, 'MEMORY.md'), index);
  // Indexed now rather than when the watcher gets to them, so Health's counts are exact at once.
  const files = app.services.vault().files;
  const rel = path.relative(files.root, await fs.realpath(dir)).split(path.sep).join('/');
  await files.notice([...Array.from({ length: listed + unlisted }, (_, i) => `${rel}/note-${i}.md`), `${rel}/MEMORY.md`]);
  return { dir, index };
}

async function openHealth(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'atlas', exact: true }).click();
  await page.getByRole('button', { name: /^Vault/ }).click();
  await page.getByRole('button', { name: 'Health', exact: true }).click();
  await page.getByRole('heading', { name: 'Vault health' }).waitFor();
}

describe.skipIf(!hasChromium)('Health keeps MEMORY.md within what the agent reads (docs/memory.md#vault-upkeep)', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('"Fix all" with more missing memories than fit adds only what fits, says how many did not and why, and Undo puts MEMORY.md back', async () => {
    app = await startApp(await tempDir());
    const { dir, index } = await seed(app, 189, 600);
    const { page, errors } = await openPage(browser(), app.host.url, 'vault-health-cap');
    await openHealth(page);
    const missing = page.getByRole('region', { name: 'Memories missing from their index' });
    await missing.getByRole('button', { name: 'Fix all 600' }).click();

    const note = page.locator('.health-note');
    await note.getByText('Added 10 memories to the index. 590 memories did not fit: the agent reads only the first 200 lines and 25,000 characters of MEMORY.md').waitFor();
    const after = await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(lineCount(after)).toBe(200);
    expect(after.length).toBeLessThanOrEqual(25_000);
    expect(after.startsWith(index)).toBe(true);
    // The rest stay listed, waiting for a tidy-up rather than offering a fix that cannot work; nothing claims all is well.
    await missing.getByText('590 memories wait for room in a full index').waitFor();
    expect(await missing.getByRole('button', { name: /^Fix all|^Add it to the index/ }).count()).toBe(0);
    expect(await missing.getByRole('button', { name: 'Tidy memory in the Inbox' }).count()).toBe(1);
    expect(await page.getByText('Nothing to fix.').count()).toBe(0);
    expect(await note.getByRole('button', { name: 'Tidy memory in the Inbox' }).count()).toBe(1);
    // The panel itself (the file tree beside it is another screen's part).
    await expectAccessible(page, '.health-panel');
    await themedScreenshots(page, 'vault-health-did-not-fit');

    await note.getByRole('button', { name: 'Undo' }).click();
    await note.getByText('Undone: 1 file is as before the fix.').waitFor();
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(index);
    await missing.getByRole('button', { name: 'Fix all 600' }).waitFor();

    // Its next step: the project's tidy-up in the Inbox.
    await missing.getByRole('button', { name: 'Fix all 600' }).click();
    await note.getByRole('button', { name: 'Tidy memory in the Inbox' }).click();
    await page.getByRole('region', { name: 'Review inbox' }).getByRole('button', { name: 'Tidy memory now' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('an index over its cap is a problem listed first, never "Nothing to fix"', async () => {
    app = await startApp(await tempDir());
    await seed(app, 260, 0);
    const { page, errors } = await openPage(browser(), app.host.url, 'vault-health-over-cap');
    await openHealth(page);
    const over = page.getByRole('region', { name: 'Indexes longer than the agent reads' });
    await over.getByText('MEMORY.md has 261 lines, but the agent reads only its first 200 lines and 25,000 characters').waitFor();
    expect(await page.getByText('Nothing to fix.').count()).toBe(0);
    expect(await page.locator('.health-kind h2').first().textContent()).toBe('Indexes longer than the agent reads');
    await themedScreenshots(page, 'vault-health-over-cap');
    await over.getByRole('button', { name: /^Tidy memory in the Inbox/ }).click();
    await page.getByRole('region', { name: 'Review inbox' }).getByRole('button', { name: 'Tidy memory now' }).waitFor();
    expect(errors).toEqual([]);
  });
});
