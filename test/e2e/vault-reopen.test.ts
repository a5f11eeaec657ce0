import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';

/** A browser reload in the Vault reopens the file that was open in that tab, when it still exists. */
describe.skipIf(!hasChromium)('the vault after a reload in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('reopens the open file after a reload, and opens none once that file is gone', async () => {
    const project = path.join(await tempDir('strata-e2e-reopen-'), 'site');
    app = await startApp(await tempDir());
    await prepareChat(app.services, { project, baseUrl: 'http://127.0.0.1:9' });
    const memory = await memoryDirOf(app.services, project);
    await fs.mkdir(memory, { recursive: true });
    const file = path.join(memory, 'deploy-friday.md');
    await fs.writeFile(file, '---\nname: No Friday deploys\ndescription: Deploys are frozen on Fridays\ntype: project\n---\nNever deploy on a Friday.\n');
    const { page, errors } = await openPage(browser(), app.host.url, 'vault-reopen');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('button', { name: /^Vault/ }).click();
    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: /No Friday deploys/ }).click();
    await page.getByRole('heading', { name: 'No Friday deploys', level: 1 }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'No Friday deploys', level: 1 }).waitFor();
    expect(await tree.getByRole('button', { name: /No Friday deploys/ }).getAttribute('aria-current')).toBe('true');
    await themedScreenshots(page, 'vault-reopen');

    // Gone since: the reload opens nothing rather than an error.
    await fs.rm(file);
    await expect.poll(() => tree.getByRole('button', { name: /No Friday deploys/ }).count()).toBe(0);
    await page.reload();
    await tree.waitFor();
    expect(await page.getByRole('heading', { name: 'No Friday deploys', level: 1 }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
