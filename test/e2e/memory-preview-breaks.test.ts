import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { startAppWithMemory } from './support/memory-project.js';
import { themedScreenshots } from './support/screenshots.js';

const BODY = [
  'Ship on Fridays only after the checklist.',
  'Tell the team in #ship first.',
  'Then wait for one thumbs-up.',
  '',
  '```sh',
  'npm run build',
  'npm run deploy',
  '```',
  '',
  '- Build',
  '- Upload',
  '  and check the site',
].join('\n');

describe.skipIf(!hasChromium)('a memory preview in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('shows a single line break of the text as a break, and keeps code blocks and lists as they are', async () => {
    const started = await startAppWithMemory('lighthouse');
    app = started.app;
    await fs.writeFile(path.join(started.dir, 'shipping.md'), `---\nname: Shipping\ndescription: How we ship\ntype: project\n---\n${BODY}\n`);
    const { page, errors } = await openPage(browser(), app.host.url, 'memory-preview-breaks');
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Shipping/ }).click();
    const preview = page.locator('.file-pane .markdown').first();
    await preview.waitFor();

    const paragraph = preview.locator('p').first();
    expect(await paragraph.innerText()).toBe('Ship on Fridays only after the checklist.\nTell the team in #ship first.\nThen wait for one thumbs-up.');
    expect(await paragraph.locator('br').count()).toBe(2);
    // The code block is the file's lines, no more, no less.
    expect(await preview.locator('pre').innerText()).toBe('npm run build\nnpm run deploy\n');
    expect(await preview.locator('pre br').count()).toBe(0);
    // The list: two items, the second's continuation line on a line of its own.
    expect(await preview.locator('li').allInnerTexts()).toEqual(['Build', 'Upload\nand check the site']);
    await themedScreenshots(page, 'memory-preview-line-breaks');
    expect(errors).toEqual([]);
  });
});
