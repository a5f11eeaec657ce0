import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTES_TEMPLATE } from '../../main/core/session-memory/index.js';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';

/**
 * One conversation, one title (conversationTitle): the sidebar, the header, the conversation search's
 * hits, a memory's "Written in conversation" and the memory table's Origin all name it alike — by its
 * first question as it stands (an edited first question renames it), by its notes' Session Title once
 * they have one, and by the user's rename. In Chromium via `strata host` and the strict fake Messages API.
 */
describe.skipIf(!hasChromium)('a conversation’s title everywhere it is named', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  const sidebar = (page: Page) => page.getByRole('region', { name: 'Conversations' });
  const settled = (page: Page) => page.getByRole('button', { name: 'Send', exact: true }).waitFor();

  /** Every place names the conversation `title`: header, sidebar, memory table's Origin, the memory's own page, a search hit. */
  async function namedEverywhere(page: Page, title: string) {
    await page.getByRole('button', { name: /^Chat/ }).click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await sidebar(page).getByRole('button', { name: title, exact: true }).waitFor();
    // Words said inside the conversation only: its hits carry the title, with no "no match" line above them.
    await sidebar(page).getByLabel('Search conversations').fill('checklist');
    const hits = page.getByRole('region', { name: 'Found in conversations' });
    await hits.getByText(title, { exact: true }).first().waitFor();
    expect(await sidebar(page).getByText(/No conversation/).count()).toBe(0);
    await sidebar(page).getByLabel('Search conversations').fill('');

    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Commands' }).fill('memory table');
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: 'Memories' });
    await table.getByRole('button', { name: 'Launch day', exact: true }).waitFor();
    // Origin is one of the columns a user turns on (the choice is kept for the next visit).
    if ((await table.getByRole('button', { name: 'Origin', exact: true }).count()) === 0) {
      await page.getByText('Columns', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'Origin', exact: true }).check();
      await page.keyboard.press('Escape');
    }
    const row = table.locator('[role="row"]', { has: page.getByRole('button', { name: 'Launch day', exact: true }) });
    await expect.poll(() => row.getByRole('cell').last().textContent()).toBe(`“${title}”`);
    await row.getByRole('button', { name: 'Launch day', exact: true }).click();
    await page.getByRole('region', { name: 'Launch day' }).getByText('Written in conversation').getByRole('button', { name: `“${title}”` }).waitFor();
  }

  it('follows an edited first question, then the notes’ title, then a rename', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-title-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    const { page, errors } = await openPage(browser(), app.host.url, 'conversation-title');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();

    const memory = '---\nname: Launch day\ndescription: The launch is on Friday\ntype: project\n---\nThe launch is on Friday.\n';
    fake.enqueue(text('Which thing?'));
    await page.getByLabel('Message', { exact: true }).fill('can u help with the thing');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await settled(page);
    await page.getByRole('heading', { name: 'can u help with the thing', level: 1 }).waitFor();

    // Edit and resend the first question: the conversation is now about the launch, and named so.
    fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'project_launch.md'), content: memory } }]), text('Saved. The checklist comes next.'));
    const question = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'You' });
    await question.hover();
    await page.getByRole('button', { name: 'Edit', exact: true }).first().click();
    await page.getByLabel('Edit your question').fill('Plan the Friday launch');
    await page.getByRole('button', { name: 'Send edited question' }).click();
    await page.getByText('Saved. The checklist comes next.').waitFor();
    await settled(page);
    await namedEverywhere(page, 'Plan the Friday launch');

    // The notes get their Session Title (typed in the notes panel): that names it from now on.
    const sessionId = (await app.services.vault().sessions.list(project))[0]!.sessionId;
    const notesFile = (await app.services.vault().sessions.paths(project)).sessionNotesFile(sessionId);
    await fs.mkdir(path.dirname(notesFile), { recursive: true });
    await fs.writeFile(notesFile, DEFAULT_NOTES_TEMPLATE);
    await page.getByRole('button', { name: /^Chat/ }).click();
    const notes = page.getByRole('complementary', { name: 'Session notes' });
    await notes.getByRole('button', { name: 'Hide session notes' }).click();
    await page.getByRole('button', { name: 'Session notes', exact: true }).click();
    await notes.getByRole('button', { name: 'Edit', exact: true }).click();
    // Under the heading "# Session Title", the notes' first line.
    await notes.getByRole('textbox', { name: 'Session notes text' }).click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.type('\nFriday launch checklist');
    await notes.getByText('Saved').waitFor();
    await notes.getByRole('button', { name: 'Done' }).click();
    await namedEverywhere(page, 'Friday launch checklist');

    // The user's own name wins over both.
    await page.getByRole('button', { name: /^Chat/ }).click();
    await sidebar(page).getByRole('button', { name: 'Rename Friday launch checklist' }).click();
    await sidebar(page).getByLabel('New title').fill('Launch');
    await page.keyboard.press('Enter');
    await namedEverywhere(page, 'Launch');
    await themedScreenshots(page, 'conversation-renamed');
    expect(errors).toEqual([]);
  });
});
