import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { docsShot, themedScreenshots } from './support/screenshots.js';

const STATE_LINE = '_What is being worked on right now: pending tasks and the immediate next steps_\n';
const WORKLOG_LINE = '_A terse step-by-step log of what was tried and done_\n';

const lastUserText = (r: WireRequest): string => {
  const last = r.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};

/** The notes as the update prompt shows them to the updater. */
const notesIn = (prompt: string) => /<current_notes_content>\n([\s\S]*?)\n<\/current_notes_content>/.exec(prompt)?.[1] ?? '';

/**
 * The user's words typed into the session notes survive the background updater's pass
 * (docs/memory.md#session-notes): merged when the two changed different lines, else shown beside the
 * update with both texts — also after the panel was closed mid-edit and after a reload. In Chromium via
 * `strata host`, the real notes updater and the strict fake Messages API.
 */
describe.skipIf(!hasChromium)('editing the session notes while the updater writes them', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  /**
   * A conversation whose first answer wrote notes with "Working on: the outline"; each later update
   * is answered by `update(notes)` after a pause, so the user is still typing when it starts.
   */
  async function open(name: string, update: (notesFile: string, notes: string) => ReturnType<typeof toolCalls>) {
    let updates = 0;
    fake = await startFakeAnthropic({
      strict: true,
      respond: (r) => {
        const last = lastUserText(r);
        const file = /The notes file is (\S+)\./.exec(last)?.[1];
        if (file) {
          updates++;
          if (updates === 1) return toolCalls([{ name: 'Edit', input: { file_path: file, old_string: STATE_LINE, new_string: `${STATE_LINE}Working on: the outline\n` } }]);
          return update(file, notesIn(last));
        }
        if (last.includes('tool_result') && JSON.stringify(r.messages).includes('The notes file is ')) return text('Updated.');
        return text(`An answer. ${'The outline has three parts and a summary. '.repeat(12)}`);
      },
    });
    const project = path.join(await tempDir('strata-e2e-notes-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    // The notes update after every answer.
    await app.services.vault().settings.update({ memory: { sessionMemory: { minTokensToInit: 50, minTokensBetweenUpdates: 20, toolCallsBetweenUpdates: 1 } } });
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    await send(page, 'Help me outline the report');
    await notes(page).getByText('Working on: the outline').waitFor();
    const sessionId = (await app.services.vault().sessions.list(project))[0]!.sessionId;
    const notesFile = (await app.services.vault().sessions.paths(project)).sessionNotesFile(sessionId);
    return { page, errors, notesFile, idle: () => app!.services.vault().chat.find(sessionId)!.idle() };
  }

  const notes = (page: Page) => page.getByRole('complementary', { name: 'Session notes' });
  const settled = (page: Page) => page.getByRole('button', { name: 'Send', exact: true }).waitFor();

  async function send(page: Page, prompt: string) {
    await page.getByLabel('Message', { exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await settled(page);
  }

  /**
   * The clash reads at the notes panel's width (about 335 px): each place both changed as two texts one
   * above the other at nearly the panel's width, the choices whole, no side-by-side view squeezed in.
   */
  async function readableInPanel(page: Page) {
    const panel = (await notes(page).boundingBox())!;
    const clash = notes(page).getByRole('alert');
    const mine = (await clash.locator('dd.mine').first().boundingBox())!;
    const theirs = (await clash.locator('dd.theirs').first().boundingBox())!;
    expect(mine.width).toBeGreaterThan(panel.width * 0.75);
    expect(theirs.width).toBeGreaterThan(panel.width * 0.75);
    expect(theirs.y).toBeGreaterThanOrEqual(mine.y + mine.height);
    expect(await notes(page).locator('.cm-mergeView').count()).toBe(0);
    for (const name of ['Use the update', 'Keep both', 'Keep my version', 'Open wide to combine…']) {
      const button = (await clash.getByRole('button', { name }).boundingBox())!;
      expect(button.x + button.width, name).toBeLessThanOrEqual(panel.x + panel.width);
      expect(button.width, name).toBeGreaterThan(panel.width * 0.6);
    }
  }

  /** Notes → Edit, the caret at the end of the "Working on" line, and words typed there. */
  async function appendToWorkingOn(page: Page, words: string) {
    await notes(page).getByRole('button', { name: 'Edit', exact: true }).click();
    await notes(page).getByRole('textbox', { name: 'Session notes text' }).getByText('Working on: the outline').click();
    await page.keyboard.press('End');
    await page.keyboard.type(words);
  }

  it('merges a line typed just before a question with the update of another line, even when the panel is closed before the update ends', async () => {
    let asked!: () => void;
    const updateAsked = new Promise<void>((resolve) => (asked = resolve));
    const { page, errors, notesFile, idle } = await open('notes-edit-merge', (file) => {
      asked();
      return toolCalls([{ name: 'Edit', input: { file_path: file, old_string: WORKLOG_LINE, new_string: `${WORKLOG_LINE}- outlined the report\n` } }], { firstByteDelayMs: 1_500 });
    });
    await appendToWorkingOn(page, ', then the charts');
    // A question at once, and the panel closed while the update still runs: the edit is sent as it leaves.
    await page.getByLabel('Message', { exact: true }).fill('And the charts?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await updateAsked;
    await notes(page).getByRole('button', { name: 'Hide session notes' }).click();
    await settled(page);
    await idle();

    await expect.poll(() => fs.readFile(notesFile, 'utf8')).toContain('Working on: the outline, then the charts\n');
    expect(await fs.readFile(notesFile, 'utf8')).toContain('- outlined the report\n');
    await page.getByRole('button', { name: 'Session notes', exact: true }).click();
    await notes(page).getByText('Working on: the outline, then the charts').waitFor();
    expect(errors).toEqual([]);
  });

  it('shows both texts when the update rewrote the same line, keeps them when the panel closes and after a reload, and Keep both saves both', async () => {
    const { page, errors, notesFile, idle } = await open('notes-edit-clash', (file, current) => {
      const line = current.split('\n').find((l) => l.startsWith('Working on'))!;
      return toolCalls([{ name: 'Edit', input: { file_path: file, old_string: line, new_string: 'Working on: the summary' } }], { firstByteDelayMs: 800 });
    });
    await appendToWorkingOn(page, ' and my own words');
    await send(page, 'Now the summary');
    await idle();

    const clash = notes(page).getByRole('alert');
    const bothTexts = async () => {
      await clash.getByText('You wrote').waitFor();
      expect(await clash.locator('.clash-lines').innerText()).toContain('Working on: the outline and my own words');
      expect(await clash.locator('.clash-lines').innerText()).toContain('Working on: the summary');
    };
    await bothTexts();
    // Clicked away mid-clash, then back: the words are still there, beside the update.
    await notes(page).getByRole('button', { name: 'Hide session notes' }).click();
    await page.getByRole('button', { name: 'Session notes', exact: true }).click();
    await bothTexts();
    await page.reload();
    await bothTexts();
    await readableInPanel(page);
    await themedScreenshots(page, 'notes-edit-clash');
    // Open wide, at both sizes (at 1024 px the notes open over the conversation): the two versions side
    // by side in a dialog as wide as the window, and back to the panel with Escape.
    const wide = page.getByRole('dialog', { name: 'Your notes and the update' });
    for (const [width, height] of [[1280, 800], [1024, 700]] as const) {
      await page.setViewportSize({ width, height });
      // At 1280 the panel comes back by itself; at 1024 it gave way and opens over the conversation.
      if (width === 1024) await page.getByRole('button', { name: 'Session notes', exact: true }).click();
      await notes(page).waitFor();
      await clash.getByRole('button', { name: 'Open wide to combine…' }).click();
      await wide.waitFor();
      const panes = await wide.locator('.cm-mergeViewEditor').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
      expect(panes).toHaveLength(2);
      for (const w of panes) expect(w).toBeGreaterThan(width === 1024 ? 420 : 540);
      expect(await wide.getByLabel('Your notes (editable)').textContent()).toContain('Working on: the outline and my own words');
      expect(await wide.getByLabel('The update').textContent()).toContain('Working on: the summary');
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate((t) => void (document.documentElement.dataset.theme = t), theme);
        await page.screenshot({ path: docsShot(`screenshots/notes-edit-clash-wide-${width}x${height}-${theme}.png`) });
      }
      await page.evaluate(() => delete document.documentElement.dataset.theme);
      await page.keyboard.press('Escape');
      expect(await wide.count()).toBe(0);
      await bothTexts();
    }
    // At 1024 px the notes are over the conversation, as narrow: the clash reads there too.
    await readableInPanel(page);
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => void (document.documentElement.dataset.theme = t), theme);
      await page.screenshot({ path: docsShot(`screenshots/notes-edit-clash-drawer-1024x700-${theme}.png`) });
    }
    await page.evaluate(() => delete document.documentElement.dataset.theme);
    // The panel gives way at 1024 px; back at 1280 it opens again on the kept clash.
    await page.setViewportSize({ width: 1280, height: 800 });
    // It was open there before the shots, so it comes back by itself: no button to click (it is gone once it shows).
    await notes(page).waitFor();
    await bothTexts();
    expect(await fs.readFile(notesFile, 'utf8')).not.toContain('my own words');

    await clash.getByRole('button', { name: 'Keep both' }).click();
    await expect.poll(() => fs.readFile(notesFile, 'utf8')).toContain('Working on: the outline and my own words\nWorking on: the summary\n');
    await notes(page).getByText('Saved').waitFor();
    await notes(page).getByRole('button', { name: 'Done' }).click();
    await notes(page).getByText('Working on: the summary').waitFor();
    expect(await notes(page).getByText('Your edit of these notes is not saved yet.').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
