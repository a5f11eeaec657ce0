import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranscriptBuilder } from '../fixtures/transcripts/transcript-builder.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { prepareChat, TEST_API_KEY } from './support/chat-app.js';

/** docs/architecture.md#the-agent: with 5,000 messages loaded, at most ~150 message elements are in the DOM. */
describe.skipIf(!hasChromium)('a long conversation in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('opens 5,000 messages with a light DOM and scrolls to the first one', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-long-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const paths = await app.services.vault().sessions.paths(project);
    const t = new TranscriptBuilder('long-session', paths.projectDir);
    for (let i = 0; i < 2500; i++) {
      t.user(`Question number ${i}`);
      t.assistant(`Answer number ${i}`);
    }
    await fs.mkdir(paths.transcriptsDir, { recursive: true });
    await fs.writeFile(paths.transcriptFile('long-session'), t.jsonl());

    const { page } = await openPage(browser(), app.host.url, 'long-conversation');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('region', { name: 'Conversations' }).getByRole('button', { name: 'Question number 0', exact: true }).click();
    const log = page.getByRole('log', { name: 'Conversation' });
    await log.getByText('Answer number 2499', { exact: true }).waitFor();
    const count = () => log.getByRole('article').count();
    expect(await count()).toBeLessThanOrEqual(150);
    // Rows are measured as they render, so the top may take a few scrolls to settle.
    await expect
      .poll(async () => {
        await log.evaluate((el) => (el.scrollTop = 0));
        return log.getByText('Question number 0', { exact: true }).count();
      })
      .toBe(1);
    expect(await count()).toBeLessThanOrEqual(150);
  });
});
