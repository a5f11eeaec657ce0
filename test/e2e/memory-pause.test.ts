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
 * Pause memory (docs/memory.md#pause-and-incognito) as the user meets it: the agent is told at the start of the
 * turn, so it says memory is paused instead of trying; a write it makes anyway reads as a calm "Not
 * saved" with Resume, never a red failure. In Chromium via `strata host` and the strict fake Messages API.
 */
describe.skipIf(!hasChromium)('pause memory in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('tells the agent memory is paused, shows a write made anyway as not saved, and Resume turns memory back on', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-pause-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    const { page, errors } = await openPage(browser(), app.host.url, 'memory-pause');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Pause memory' }).click();
    await page.getByRole('button', { name: 'Memory paused' }).waitFor();

    // Sent, then answered: waits for the answer itself (the Send button is back before a turn has started).
    const send = async (prompt: string, answer: string) => {
      await page.getByLabel('Message', { exact: true }).fill(prompt);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByRole('log', { name: 'Conversation' }).getByText(answer).waitFor();
      await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    };
    fake.enqueue(text('Memory is paused in this project, so I will not save that.'));
    await send('Remember that I live in Lisbon', 'so I will not save that.');
    // The main agent's requests (a recall or title side query has its own system prompt).
    const mainSystem = () => JSON.stringify(fake!.requests.findLast((r) => JSON.stringify(r.body.system).includes('You are Strata'))!.body.system);
    const system = mainSystem();
    expect(system).toContain('Memory is paused in this project');
    expect(system).not.toContain('You have a persistent, file-based memory');

    // A model that writes anyway: the write is refused, calmly.
    const file = path.join(memoryDir, 'user_city.md');
    fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: file, content: '---\nname: City\ndescription: Lives in Lisbon\ntype: user\n---\nLives in Lisbon.\n' } }]),
      text('I could not save it: memory is paused.'),
    );
    await send('Please remember it anyway', 'I could not save it: memory is paused.');
    const card = page.getByRole('button', { name: /Write.*user_city\.md/ });
    expect(await card.innerText()).toContain('Not saved');
    expect(await card.innerText()).not.toContain('Failed');
    const line = page.locator('.tool-note').filter({ hasText: 'Not saved: memory is paused in this project' });
    await line.waitFor();
    expect(await fs.access(file).then(() => true, () => false)).toBe(false);
    await expectAccessible(page);
    await themedScreenshots(page, 'chat-memory-not-saved');

    await line.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('button', { name: 'Pause memory' }).waitFor();
    await page.getByText('Not saved: memory was paused in this project. It is on again').waitFor();
    fake.enqueue(text('Noted.'));
    await send('Thanks', 'Noted.');
    expect(mainSystem()).toContain('You have a persistent, file-based memory');
    expect(errors).toEqual([]);
  });
});
