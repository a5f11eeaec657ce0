import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { prepareChat, TEST_API_KEY } from './support/chat-app.js';

/**
 * An answer's actions in Chromium via `strata host`: an answer a tool call splits in two has one Copy,
 * which copies all of it; while the turn still runs (its tool done, the model not yet answering) nothing
 * offers Regenerate.
 */
describe.skipIf(!hasChromium)('the actions of an answer in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('one Copy for an answer split by a tool call, and no Regenerate until the turn ends', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-actions-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    await fs.writeFile(path.join(project, 'plan.md'), 'Launch: Friday\n');
    const { page, errors } = await openPage(browser(), app.host.url, 'answer-actions');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    const log = page.getByRole('log', { name: 'Conversation' });

    fake.enqueue(
      { kind: 'message', content: [{ type: 'text', text: 'Let me look at the plan.' }, { type: 'tool_use', name: 'Read', input: { file_path: path.join(project, 'plan.md') } }], stopReason: 'tool_use' },
      text('The launch is on **Friday**.', { firstByteDelayMs: 2_500 }),
    );
    await page.getByLabel('Message', { exact: true }).fill('When is the launch?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // Mid-turn: the first block is written and the tool has run, the model has not answered yet.
    await log.getByRole('button', { name: /Read.*plan\.md.*Done/ }).waitFor();
    await log.getByText('Let me look at the plan.').hover();
    expect(await page.getByRole('button', { name: 'Regenerate' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Copy answer' }).count()).toBe(0);

    await log.getByText('The launch is on').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await log.getByText('The launch is on').hover();
    const copy = page.getByRole('button', { name: 'Copy answer' });
    expect(await copy.count()).toBe(1);
    await copy.click();
    await page.getByRole('button', { name: 'Copy answer' }).getByText('Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Let me look at the plan.\n\nThe launch is on **Friday**.');
    expect(await page.getByRole('button', { name: 'Regenerate' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
