import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';

/**
 * A tool row, expanded, reads as what the agent did: a sentence naming the file as the user knows it, the
 * text written, an edit as before and after, a failure as a sentence; the raw JSON only behind "Show raw".
 * In Chromium via `strata host` and the strict fake Messages API.
 */
describe.skipIf(!hasChromium)('tool rows in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('shows a Write, a Read, an Edit and a failed Edit in words, with the raw call behind Show raw', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-tool-rows-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    const file = path.join(memoryDir, 'user_role.md');
    const content = '---\nname: Role\ndescription: What the user does\ntype: user\n---\nWorks as a lighthouse keeper.\n';
    fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: file, content } }]),
      toolCalls([{ name: 'Read', input: { file_path: file } }]),
      toolCalls([{ name: 'Edit', input: { file_path: file, old_string: 'a lighthouse keeper', new_string: 'the head lighthouse keeper' } }]),
      toolCalls([{ name: 'Edit', input: { file_path: file, old_string: 'a sailor', new_string: 'a captain' } }]),
      text('I saved your role.'),
    );
    const { page, errors } = await openPage(browser(), app.host.url, 'tool-rows');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    await page.getByLabel('Message', { exact: true }).fill('Remember that I keep a lighthouse');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('log', { name: 'Conversation' }).getByText('I saved your role.').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    expect(await fs.readFile(file, 'utf8')).toContain('the head lighthouse keeper');

    const rows = page.locator('.tool-card');
    await expect.poll(() => rows.count()).toBe(4);
    for (let i = 0; i < 4; i++) await rows.nth(i).locator('.tool-head').click();
    const log = page.getByRole('log', { name: 'Conversation' });
    // The Write: a sentence with the memory's file name (never the vault's slugged folder), then its text.
    await log.getByText('Wrote user_role.md · 6 lines', { exact: true }).waitFor();
    expect(await log.getByLabel('Text of user_role.md').first().textContent()).toBe(content);
    // The Read: the file's text, without the cat -n numbering the model reads.
    // (Strata noted the conversation that wrote it in the frontmatter: one line more.)
    await log.getByText('Read user_role.md · 7 lines', { exact: true }).waitFor();
    const read = (await log.getByLabel('Text of user_role.md').nth(1).textContent()) ?? '';
    expect(read).toContain('\nWorks as a lighthouse keeper.');
    expect(read).not.toMatch(/^\s*\d+\t/m);
    // The Edit: before and after, side by side.
    await log.getByText('Edited user_role.md', { exact: true }).waitFor();
    await rows.nth(2).getByLabel('Before').getByText('a lighthouse keeper').waitFor();
    await rows.nth(2).getByLabel('After').getByText('the head lighthouse keeper').waitFor();
    // The failed Edit: a calm sentence and the reason, with the path shown by name.
    await log.getByText('Could not edit user_role.md', { exact: true }).waitFor();
    await rows.nth(3).getByLabel('Why').waitFor();

    // No raw JSON and no absolute path until Show raw.
    const shown = await log.innerText();
    expect(shown).not.toContain('"file_path"');
    expect(shown).not.toContain(memoryDir);
    // The header's tools stay on one line, beside the notes panel at 1280 and with the Notes button at 1024.
    for (const [width, height] of [[1280, 800], [1024, 700]] as const) {
      await page.setViewportSize({ width, height });
      // Middles, not tops: the meter and the buttons differ in height on one line; polled, since the
      // layout follows the resize a frame later (at 1024 the notes panel becomes a drawer and Notes appears).
      const spread = () =>
        page.locator('.session-tools > *').evaluateAll((els) => {
          const middles = els.map((e) => (e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2);
          return els.length >= 4 ? Math.max(...middles) - Math.min(...middles) : Infinity;
        });
      // Within a few pixels: a second line would sit a whole button's height lower.
      await expect.poll(spread, { message: `tools at ${width}px` }).toBeLessThan(4);
    }
    await page.getByRole('button', { name: 'Session notes', exact: true }).waitFor();
    await themedScreenshots(page, 'chat-tool-rows');
    await rows.nth(0).getByRole('button', { name: 'Show raw' }).click();
    expect(await rows.nth(0).getByLabel('Write input').innerText()).toContain('"file_path"');
    await rows.nth(0).getByRole('button', { name: 'Hide raw' }).waitFor();
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });
});
