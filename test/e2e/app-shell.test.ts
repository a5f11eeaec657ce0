import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';


describe.skipIf(!hasChromium)('the app shell in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('loads the welcome screen with its first steps, drops the token from the address bar, and is accessible', async () => {
    app = await startApp(await tempDir());
    const { page, errors } = await openPage(browser(), app.host.url, 'welcome');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    expect(await page.getByRole('button', { name: /Open a folder/ }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add API key in Settings' }).isVisible()).toBe(true);
    expect(page.url()).not.toContain('token=');
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  it('comes back after a reload of the tab, which no longer has the token in its address', async () => {
    app = await startApp(await tempDir());
    const { page, errors } = await openPage(browser(), app.host.url, 'reload');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    expect(page.url()).not.toContain('token=');
    await page.reload();
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    expect(page.url()).not.toContain('token=');
    // The contract works over the re-opened socket.
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(errors).toEqual([]);

    // A tab that never had the token (another browser profile) gets an explanation, not the app.
    const stranger = await (await browser().newContext()).newPage();
    const res = await stranger.goto(`http://127.0.0.1:${app.host.port}/`);
    expect(res?.status()).toBe(403);
    await stranger.getByText('Open that link again.', { exact: false }).waitFor();
    expect(await stranger.getByRole('heading', { name: 'Welcome to Strata' }).count()).toBe(0);
    await stranger.context().close();
  });

  it('navigates with clicks and with keyboard shortcuts, and every screen is accessible', async () => {
    app = await startApp(await tempDir());
    const { page } = await openPage(browser(), app.host.url, 'navigation');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('heading', { name: 'Vault', level: 1 }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Control+Comma');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Control+1');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    await page.keyboard.press('Control+o');
    await page.getByRole('dialog', { name: 'Open a project folder' }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('keeps settings across a host restart', async () => {
    const appData = await tempDir();
    app = await startApp(appData);
    let { page } = await openPage(browser(), app.host.url, 'settings-persist');
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByLabel('Model', { exact: true }).fill('claude-test-model');
    await page.getByLabel(/API base URL/).fill('http://127.0.0.1:4010');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await app.close();

    app = await startApp(appData);
    ({ page } = await openPage(browser(), app.host.url, 'settings-persist-2'));
    await page.getByRole('button', { name: /^Settings/ }).click();
    await expect.poll(() => page.getByLabel('Model', { exact: true }).inputValue()).toBe('claude-test-model');
    expect(await page.getByLabel(/API base URL/).inputValue()).toBe('http://127.0.0.1:4010');
    expect(await page.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  });

  it('says plainly that a key saved where no keychain runs lasts only until Strata stops, and it does', async () => {
    const appData = await tempDir();
    // startApp's default credential store is the in-memory one `strata host` falls back to without a keyring.
    app = await startApp(appData);
    let { page } = await openPage(browser(), app.host.url, 'key-no-keychain');
    await page.getByRole('button', { name: /^Settings/ }).click();
    const keyForm = page.getByRole('form', { name: 'Anthropic API key' });
    await keyForm.getByText('This computer has no system keychain', { exact: false }).waitFor();
    await keyForm.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-memory-only');
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    await keyForm.getByRole('status').filter({ hasText: 'Saved until Strata stops (no keychain to keep it).' }).waitFor();
    expect(await keyForm.getByText('keychain.', { exact: false }).count()).toBe(0);
    await expectAccessible(page);
    await app.close();

    app = await startApp(appData);
    ({ page } = await openPage(browser(), app.host.url, 'key-no-keychain-2'));
    await page.getByRole('button', { name: 'Add API key in Settings' }).waitFor();
  });

  it('refuses an invalid base URL in the form before anything is saved', async () => {
    app = await startApp(await tempDir());
    const { page } = await openPage(browser(), app.host.url, 'settings-invalid');
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByLabel(/API base URL/).fill('not a url');
    await page.getByText('Enter an http(s) URL, or leave it empty.').first().waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
  });

  it('opens a project folder through the in-app folder chooser', async () => {
    const home = await tempDir();
    await fs.mkdir(path.join(home, 'work', 'my-project'), { recursive: true });
    await fs.mkdir(path.join(home, '.hidden'));
    app = await startApp(await tempDir(), home);
    const { page } = await openPage(browser(), app.host.url, 'folder-chooser');
    await page.getByRole('button', { name: /Open a folder/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a project folder' });
    await dialog.getByRole('button', { name: /work/ }).click();
    await dialog.getByRole('button', { name: /my-project/ }).click();
    await expect.poll(() => dialog.getByLabel('Folder path').inputValue()).toBe(path.join(home, 'work', 'my-project'));
    await dialog.getByRole('button', { name: 'Open this folder' }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    expect(await page.locator('.session-titles p').textContent()).toBe('my-project');
    expect(await page.getByRole('navigation').count()).toBe(1);
    expect(await page.locator('.project-item', { hasText: 'my-project' }).getAttribute('aria-current')).toBe('true');
    expect(app.services.vault().projects.list().map((p) => p.path)).toEqual([path.join(home, 'work', 'my-project')]);
  });

  it('shows a clear error in the chooser for a folder that does not exist', async () => {
    const home = await tempDir();
    app = await startApp(await tempDir(), home);
    const { page } = await openPage(browser(), app.host.url, 'chooser-missing');
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    await page.keyboard.press('Control+o');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Folder path').fill(path.join(home, 'does-not-exist'));
    await dialog.getByRole('button', { name: 'Go' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'does not exist' }).waitFor();
  });
});
