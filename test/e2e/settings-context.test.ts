import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';

describe.skipIf(!hasChromium)('Settings › Memory and long conversations in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('saves the memory-writing choice and the context features with clicks, kept after a reload, and is accessible', async () => {
    app = await startApp(await tempDir());
    const { page, errors } = await openPage(browser(), app.host.url, 'settings-context');
    await page.getByRole('button', { name: /^Settings/ }).click();
    const group = page.getByRole('group', { name: 'Memory and long conversations' });
    await group.waitFor();
    await group.getByRole('radio', { name: /API’s memory tool/ }).check();
    await group.getByRole('checkbox', { name: /Let the API summarize/ }).check();
    await group.getByRole('radio', { name: /newest Claude Code format/ }).check();
    await expect.poll(() => app!.services.vault().settings.get()).toMatchObject({ memoryWrites: 'memory-tool', memoryShape: 'metadata', serverCompaction: true, contextEditing: true });
    await expectAccessible(page);
    await page.reload();
    await page.getByRole('button', { name: /^Settings/ }).click();
    expect(await page.getByRole('radio', { name: /API’s memory tool/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Let the API summarize/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /newest Claude Code format/ }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });
});
