import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TeamAdmin, TeamServer } from '../../server/index.js';
import { openTeamSync, type OpenedTeamSync } from '../../main/core/team-sync/open-team-sync.js';
import { ProjectPaths } from '../../main/core/paths/index.js';
import { systemClock } from '../../main/core/ports.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { testLogger } from '../support/test-logger.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';
import { startAppWithSite, startTeam } from './support/team-app.js';
import { setTeamServer, signInInTab } from './support/team-sign-in.js';

const REPO = 'acme/site';
const PASSWORD = 'correct horse battery';
const NOTE = '---\nname: Deploy steps\ndescription: How we ship the site\ntype: project\n---\n- Build, then upload.\n';

/** Ctrl+K, then the words typed into the palette's filter: the option the words pick, first. */
async function palette(page: Page, words: string) {
  await page.keyboard.press('Control+k');
  const filter = page.getByRole('combobox', { name: 'Commands' });
  await filter.waitFor();
  await page.keyboard.type(words);
  return page.getByRole('listbox').getByRole('option').first();
}

/** The option is greyed out with `reason`; Enter on it runs nothing and the palette stays, until Escape. */
async function expectDisabled(page: Page, words: string, label: string, reason: string) {
  const option = await palette(page, words);
  expect(await option.innerText()).toBe(`${label}\n${reason}`);
  expect(await option.getAttribute('aria-disabled')).toBe('true');
  await page.keyboard.press('Enter');
  expect(await page.getByRole('dialog', { name: 'Commands' }).isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Commands' }).waitFor({ state: 'detached' });
}

describe.skipIf(!hasChromium)('the command palette (Ctrl+K) in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  let server: TeamServer | null = null;
  let admin: TeamAdmin | null = null;
  const serverLogs = testLogger();
  closeAfterEach(() => [app, fake, server, admin]);

  it('stops a running answer and opens Compact and the Inbox from the keyboard, each only when it can run', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-palette-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const { page, errors } = await openPage(browser(), app.host.url, 'command-palette-chat');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();

    await expectDisabled(page, 'stop', 'Stop the answer', 'Nothing is running');
    await expectDisabled(page, 'compact', 'Compact this conversation…', 'Nothing to compact yet');

    // A minute of answer at this pace: long enough to be still running while the palette is used.
    const story = 'word '.repeat(2000);
    fake.enqueue(text(story, { chunkChars: 5, chunkDelayMs: 30 }));
    await page.getByLabel('Message', { exact: true }).fill('Tell me a long story');
    await page.keyboard.press('Enter');
    const answer = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Strata' });
    await expect.poll(async () => (await answer.textContent())?.length ?? 0).toBeGreaterThan(20);
    await expectDisabled(page, 'compact', 'Compact this conversation…', 'Wait for the answer to finish');
    const stop = await palette(page, 'stop');
    expect(await stop.innerText()).toBe('Stop the answer');
    await page.keyboard.press('Enter');
    await page.getByRole('log', { name: 'Conversation' }).getByRole('note', { name: 'Stopped' }).waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    expect((await answer.textContent())!.length).toBeLessThan(story.trim().length);

    await palette(page, '');
    await expectAccessible(page);
    await page.keyboard.press('Escape');

    await palette(page, 'compact');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Compact this conversation' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Compact this conversation' }).waitFor({ state: 'detached' });

    await palette(page, 'inbox');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Review inbox', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  });

  it('signs in to the team server and syncs now from the keyboard, each only once team memory is set up for it', async () => {
    ({ server, admin } = await startTeam(REPO, { dana: PASSWORD, lee: null }, serverLogs.logger));
    const leeToken = (await admin.createToken('lee', null)).token;
    const serverUrl = server.url;
    const lee: OpenedTeamSync = await openTeamSync({
      vaultRoot: await tempDir('strata-e2e-lee-'),
      projectDir: await tempDir('strata-e2e-lee-site-'),
      serverUrl,
      teamRepo: REPO,
      getToken: async () => leeToken,
      clock: systemClock,
      logger: serverLogs.logger,
    });
    await fs.mkdir(lee.teamDir, { recursive: true });

    let project: string;
    ({ app, project } = await startAppWithSite());
    const { page, errors } = await openPage(browser(), app.host.url, 'command-palette-team');
    await page.locator('.project-item', { hasText: 'site' }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();

    await expectDisabled(page, 'sync team', 'Sync team memory now', 'Set a team server in Settings first');
    await expectDisabled(page, 'sign in', 'Sign in to the team server', 'Set a team server in Settings first');
    await setTeamServer(page, serverUrl, REPO);
    await expectDisabled(page, 'sync team', 'Sync team memory now', 'Sign in to the team server first');
    // What can run now at the top; what cannot below it, greyed, with the reason.
    expect(await (await palette(page, 'team')).innerText()).toBe('Sign in to the team server');
    await expectAccessible(page);
    await themedScreenshots(page, 'command-palette-team');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');

    const newTab = page.context().waitForEvent('page');
    await palette(page, 'sign in');
    await page.keyboard.press('Enter');
    await signInInTab(await newTab, serverUrl, 'dana', PASSWORD);
    await page.getByRole('button', { name: 'Team memory synced' }).waitFor();
    await expectDisabled(page, 'sign in', 'Sign in to the team server', 'Signed in as dana');

    // Lee shares a memory; the next pull on its own is minutes away, Sync now brings it at once.
    await fs.writeFile(path.join(lee.teamDir, 'deploy.md'), NOTE);
    expect((await lee.engine.sync()).pushed).toEqual(['deploy.md']);
    const danaFile = path.join((await ProjectPaths.resolve(app.services.vault().root, project)).teamMemoryDir, 'deploy.md');
    await palette(page, 'sync team');
    await page.keyboard.press('Enter');
    await expect.poll(() => fs.readFile(danaFile, 'utf8').catch(() => null), { timeout: 10_000 }).toBe(NOTE);
    expect(errors).toEqual([]);
    serverLogs.assertNoErrors();
  });
});
