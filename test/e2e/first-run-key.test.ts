import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';

/**
 * The Welcome screen's key step, in Chromium through `strata host`, whose credential store is the
 * in-memory one a machine without a keyring gets: it says what really happens to a key there, and the
 * key in use reads the same on the Welcome screen and in Settings.
 */
describe.skipIf(!hasChromium)('the first run’s API key step', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  const keyStep = (page: import('playwright-core').Page) => page.locator('ol.steps > li').nth(1);
  const settingsKeyWords = async (page: import('playwright-core').Page) => {
    await page.getByRole('button', { name: /^Settings/ }).click();
    return (await page.getByRole('form', { name: 'Anthropic API key' }).locator('p.muted').textContent())?.trim();
  };

  it('promises no keychain on a machine without one, and says a key added there lasts until Strata stops', async () => {
    app = await startApp(await tempDir());
    const { page, errors } = await openPage(browser(), app.host.url, 'first-run-no-keychain');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    await keyStep(page).getByRole('button', { name: 'Add API key in Settings' }).waitFor();
    const promise = (await keyStep(page).textContent()) ?? '';
    expect(promise).toContain('This computer has no system keychain, so a key added here lasts only until Strata stops.');
    expect(promise).not.toMatch(/goes to your system keychain/);
    await expectAccessible(page);
    await themedScreenshots(page, 'welcome-no-keychain');

    // Settings says the same; a key typed there then reads the same on both screens.
    expect(await settingsKeyWords(page)).toContain('This computer has no system keychain, so a key added here lasts only until Strata stops.');
    const keyForm = page.getByRole('form', { name: 'Anthropic API key' });
    await keyForm.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-first-run');
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    await keyForm.getByRole('status').filter({ hasText: 'Saved until Strata stops' }).waitFor();
    const entered = 'Using the key you entered, until Strata stops (this computer has no system keychain).';
    await keyForm.getByText(entered).waitFor();
    await page.keyboard.press('Control+1');
    await keyStep(page).getByText(entered).waitFor();
    expect(await keyStep(page).getByText('API key found.').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('words a key from the environment the same on the Welcome screen and in Settings', async () => {
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: 'sk-ant-e2e-from-env' } });
    const { page, errors } = await openPage(browser(), app.host.url, 'first-run-env-key');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    const words = 'Using the key in the ANTHROPIC_API_KEY environment variable.';
    await keyStep(page).getByText(words).waitFor();
    expect(await keyStep(page).getByRole('button', { name: 'Add API key in Settings' }).count()).toBe(0);
    await themedScreenshots(page, 'welcome-env-key');
    expect(await settingsKeyWords(page)).toBe(words);
    expect(await page.content()).not.toContain('sk-ant-e2e-from-env');
    expect(errors).toEqual([]);
  });
});
