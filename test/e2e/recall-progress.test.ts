import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, type FakeAnthropic, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';

const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
const memory = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n${body}\n`;
/** How long the fake takes to answer recall's memory selector: slow recall, for real, past the one-second mark. */
const SELECTOR_DELAY_MS = 4_000;

/**
 * docs/memory.md#recall "Progress": recall that takes more than a second before the first token says so in
 * the chat, in words a user knows, and the line goes once the answer comes.
 */
describe.skipIf(!hasChromium)('recall progress in Chromium via strata host and the fake Messages API', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('shows "Finding memories… (3)" while a slow recall runs, then the answer without it', async () => {
    fake = await startFakeAnthropic({
      strict: true,
      respond: (r) =>
        isSelector(r)
          ? text('{"selected_memories": ["project_deploy.md"]}', { firstByteDelayMs: SELECTOR_DELAY_MS })
          : text('We deploy on Thursdays, after the review.'),
    });
    const project = path.join(await tempDir('strata-e2e-recall-progress-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), memory('Deploy day', 'Deployments happen on Thursdays', 'We deploy on Thursdays.'));
    await fs.writeFile(path.join(memoryDir, 'project_review.md'), memory('Review', 'Every change is reviewed', 'Two reviewers.'));
    await fs.writeFile(path.join(memoryDir, 'user_tabs.md'), memory('Tabs', 'Indent with tabs', 'Tabs.'));

    const { page, errors } = await openPage(browser(), app.host.url, 'recall-progress');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    await page.getByLabel('Message', { exact: true }).fill('Which day do we deploy?');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    const line = page.getByRole('status').filter({ hasText: 'Finding memories… (3)' });
    await line.waitFor();
    // The question shows at once, above the line, though main writes it only once recall is done.
    const asked = page.getByRole('article', { name: 'You' });
    expect(await asked.allTextContents()).toEqual(['Which day do we deploy?']);
    expect(await line.count()).toBe(1);
    await themedScreenshots(page, 'chat-recall-progress');
    await expectAccessible(page);
    await page.getByText('We deploy on Thursdays, after the review.').waitFor();
    expect(await line.count()).toBe(0);
    expect(await asked.count()).toBe(1);
    expect(await page.getByLabel('Memories used').getByRole('button', { name: 'Deploy day' }).count()).toBe(1);
    expect(fake.requests.map((r) => r.rejected)).toEqual(fake.requests.map(() => null));
    expect(errors).toEqual([]);
  });
});
