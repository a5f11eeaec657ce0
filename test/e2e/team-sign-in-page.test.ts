import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TeamAdmin, TeamServer } from '../../server/index.js';
import { testLogger } from '../support/test-logger.js';
import { closeAfterEach, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';
import { startAppWithSite, startTeam } from './support/team-app.js';
import { setTeamServer } from './support/team-sign-in.js';

const REPO = 'acme/site';
const PASSWORD = 'correct horse battery';

const style = (locator: Locator, property: 'backgroundColor' | 'borderColor' | 'color') =>
  locator.evaluate((el, p) => getComputedStyle(el)[p], property);
/** The text colour the app gives an element of `className`. */
const appColour = (page: Page, className: string) =>
  page.evaluate((name) => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.className = name;
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, className);
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** The page's own colours in light and then dark, as the system gives them. */
async function inBothThemes<T>(page: Page, read: () => Promise<T>): Promise<[T, T]> {
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await read();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await read();
  await page.emulateMedia({ colorScheme: 'light' });
  return [light, dark];
}

describe.skipIf(!hasChromium)('the team sign-in page, opened from the app in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let server: TeamServer | null = null;
  let admin: TeamAdmin | null = null;
  const serverLogs = testLogger();
  closeAfterEach(() => [app, server, admin]);

  it('looks like the app in both themes, starts in the first field, and says a wrong password clearly', async () => {
    ({ server, admin } = await startTeam(REPO, { dana: PASSWORD }, serverLogs.logger));
    ({ app } = await startAppWithSite());
    const { page, errors } = await openPage(browser(), app.host.url, 'team-sign-in-page');
    await page.locator('.project-item', { hasText: 'site' }).click();
    const card = await setTeamServer(page, server.url, REPO);
    const appButton = card.getByRole('button', { name: 'Sign in to the team server' });
    const appColours = await inBothThemes(page, async () => ({
      card: await style(page.locator('body'), 'backgroundColor'),
      soft: await style(page.locator('.sidebar'), 'backgroundColor'),
      button: await style(appButton, 'backgroundColor'),
    }));

    const newTab = page.context().waitForEvent('page');
    await appButton.click();
    const tab = await newTab;
    await tab.waitForLoadState();
    await tab.getByRole('heading', { name: 'Sign in to team memory', level: 1 }).waitFor();
    // The keyboard is in the first field at once.
    expect(await focusedId(tab)).toBe('username');
    const signIn = tab.getByRole('button', { name: 'Sign in' });
    // The app's palette in each theme: the card in the app's page colour on its sidebar's, the app's primary button.
    const pageColours = await inBothThemes(tab, async () => ({
      card: await style(tab.locator('main'), 'backgroundColor'),
      soft: await style(tab.locator('body'), 'backgroundColor'),
      button: await style(signIn, 'backgroundColor'),
    }));
    expect(pageColours).toEqual(appColours);
    expect(pageColours[0]).not.toEqual(pageColours[1]);

    // A wrong password: a clear alert, the username kept, the keyboard in the password field.
    await tab.keyboard.type('dana');
    await tab.keyboard.press('Tab');
    await tab.keyboard.type('not my password');
    await tab.keyboard.press('Enter');
    const alert = tab.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe('Wrong username or password.');
    expect(await tab.getByLabel('Username').inputValue()).toBe('dana');
    expect(await focusedId(tab)).toBe('password');
    expect(await tab.getByLabel('Password').getAttribute('aria-describedby')).toBe('sign-in-error');
    // Edged in the app's danger colour (what the app's error text is written in).
    expect(await inBothThemes(tab, () => style(alert, 'borderColor'))).toEqual(await inBothThemes(page, () => appColour(page, 'error-text')));
    await expectAccessible(tab);
    await themedScreenshots(tab, 'team-sign-in-wrong-password');
    await tab.setViewportSize({ width: 1280, height: 800 });

    await tab.keyboard.type(PASSWORD);
    await tab.keyboard.press('Enter');
    await tab.getByRole('heading', { name: 'Signed in to Strata', level: 1 }).waitFor();
    expect(await style(tab.locator('body'), 'backgroundColor')).toBe(appColours[0].soft);
    await themedScreenshots(tab, 'team-sign-in-done');
    await tab.close();
    await card.getByText('Signed in as dana.').waitFor();
    expect(errors).toEqual([]);
    serverLogs.assertNoErrors();
  });
});
