import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { snapshotDir } from '../support/snapshot-dir.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';


describe.skipIf(!hasChromium)('incognito and paused memory in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('an incognito conversation is marked, answers without memory and leaves the vault as it was; pause memory shows in the header and Settings', async () => {
    fake = await startFakeAnthropic({ strict: true, respond: () => text('Deployments? I have no memory of that in this chat.') });
    const project = path.join(await tempDir('strata-e2e-incognito-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Deploy day](project_deploy.md) — Thursdays\n');
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), '---\nname: Deploy day\ndescription: Deployments happen on Thursdays\ntype: project\n---\nWe deploy on Thursdays.\n');
    const { page, errors } = await openPage(browser(), app.host.url, 'memory-incognito');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    const root = app.services.vault().root;
    await app.services.vault().files.idle();
    const before = await snapshotDir(root);

    await page.getByRole('button', { name: 'New incognito conversation' }).click();
    await page.locator('.session-header').getByText('Incognito — nothing is remembered').waitFor();
    // Its header says what it is, never "New conversation", and its notes panel offers no Edit.
    await page.getByRole('heading', { name: 'Incognito conversation', level: 1 }).waitFor();
    expect(await page.getByRole('complementary', { name: 'Session notes' }).getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await page.getByLabel('Message', { exact: true }).fill('Which day do we deploy? Remember I prefer tabs.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('I have no memory of that in this chat.').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    await page.getByRole('list', { name: 'Incognito conversations' }).getByRole('button', { name: /Which day do we deploy/ }).waitFor();
    // Its notes panel says why it stays empty, instead of when notes would start.
    await page.getByRole('complementary', { name: 'Session notes' }).getByText(/An incognito conversation keeps no session notes/).waitFor();
    await expectAccessible(page);
    await themedScreenshots(page, 'chat-incognito');

    expect(JSON.stringify(fake.requests.map((r) => r.body))).not.toContain('Deploy day');
    await app.services.vault().files.idle();
    const after = await snapshotDir(root);
    for (const p of Object.keys(after)) if (p.startsWith('.strata/cache/')) delete after[p];
    for (const p of Object.keys(before)) if (p.startsWith('.strata/cache/')) delete before[p];
    expect(after).toEqual(before);

    // Pause memory from the chat header of a normal conversation; Settings shows the same switch.
    await page.getByRole('button', { name: /New conversation/ }).first().click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Pause memory' }).click();
    await page.getByRole('button', { name: 'Memory paused', pressed: true }).waitFor();
    await expect.poll(() => app!.services.vault().settings.get().projects[project]?.memoryPaused).toBe(true);
    await themedScreenshots(page, 'chat-memory-paused');
    await page.getByRole('link', { name: 'Settings' }).or(page.getByRole('button', { name: 'Settings' })).first().click();
    await expect.poll(() => page.getByLabel(/Pause memory/).isChecked()).toBe(true);
    // A controlled switch: it turns off when the saved settings come back.
    await page.getByLabel(/Pause memory/).click();
    await expect.poll(() => app!.services.vault().settings.get().projects[project]?.memoryPaused).toBe(false);
    expect(errors).toEqual([]);
  });
});
