import path from 'node:path';
import { promises as fs } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { apiErrors, startFakeAnthropic, text, toolCalls, type FakeAnthropic, type ScriptedResponse, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { docsShot } from './support/screenshots.js';

/**
 * The screenshots in docs/screenshots/: one conversation with every card kind, light and dark, at 1280
 * and 1024 pixels wide. Run on purpose (`npm run screenshots`), never as part of the suite: it rewrites
 * files in docs/ (the vitest project `screenshots`, which `npm test` leaves out).
 */

const lastUserText = (r: WireRequest): string => {
  const last = r.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};

describe.skipIf(!hasChromium)('chat screenshots for docs/', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('captures a conversation with every card kind', async () => {
    const main: ScriptedResponse[] = [];
    let memoryDir = '';
    let proposed = false;
    fake = await startFakeAnthropic({
      strict: true,
      respond: (r) => {
        const extractor = JSON.stringify(r.messages).includes('You are the memory extractor');
        if (extractor && lastUserText(r).includes('tool_result')) return text('Done.');
        if (extractor) {
          if (proposed) return text('Nothing to do.');
          proposed = true;
          return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' } }]);
        }
        return main.shift() ?? text('(nothing scripted)');
      },
    });
    const project = path.join(await tempDir('strata-shots-'), 'launch-site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url, model: 'claude-sonnet-4-5' });
    memoryDir = await memoryDirOf(app.services, project);
    const vault = app.services.vault();
    const settings = vault.settings.get();
    await vault.settings.update({ projects: { ...settings.projects, [project]: { ...settings.projects[project]!, extraction: true, reviewMode: true } } });
    const { page } = await openPage(browser(), app.host.url, 'chat-screenshots');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'launch-site', exact: true }).click();
    const log = page.getByRole('log', { name: 'Conversation' });
    const settled = () => page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    const send = async (prompt: string, ...answers: ScriptedResponse[]) => {
      main.push(...answers);
      await page.getByLabel('Message', { exact: true }).fill(prompt);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
    };
    const name = path.join(memoryDir, 'user_name.md');
    await send('Remember that my name is Ada', toolCalls([{ name: 'Write', input: { file_path: name, content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } }]), text('Saved — I will call you **Ada**.'));
    await page.getByRole('group', { name: 'Remembered: Their name' }).waitFor();
    await settled();
    await send('Write the launch notes to notes.txt', toolCalls([{ name: 'Write', input: { file_path: path.join(project, 'notes.txt'), content: 'Launch on Friday.\n' } }]), text('I left notes.txt alone.'));
    await page.getByRole('alertdialog').getByRole('button', { name: 'Deny' }).click();
    await settled();
    await page.getByRole('group', { name: 'Proposed memory: Prefers tabs' }).waitFor();
    main.push(text('<summary>1. Primary request: launch notes; the user is Ada.</summary>'));
    await page.getByRole('button', { name: 'Compact…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Compact now' }).click();
    await log.getByRole('separator', { name: 'Conversation compacted' }).waitFor();
    await settled();
    await send('Actually, forget my name', toolCalls([{ name: 'Delete', input: { file_path: name } }]), text('Forgotten.'));
    await page.getByRole('group', { name: 'Forgot: Their name' }).waitFor();
    await settled();
    await send('Tell me the whole launch history', text('The launch started as a small idea. '.repeat(60), { chunkChars: 6, chunkDelayMs: 15 }));
    await log.getByText(/small idea/).first().waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await settled();
    await send('When is the launch?', apiErrors.overloaded());
    await page.getByRole('alert').waitFor();
    await settled();

    await fs.mkdir('docs/screenshots', { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1280, 1024]) {
        await page.emulateMedia({ colorScheme: scheme });
        // Tall enough that the whole conversation, every card in it, is in one picture.
        await page.setViewportSize({ width, height: 800 });
        const rest = await page.getByRole('log', { name: 'Conversation' }).evaluate((el) => el.scrollHeight - el.clientHeight);
        await page.setViewportSize({ width, height: 800 + Math.max(0, rest) + 40 });
        await bottom(page);
        await page.screenshot({ path: docsShot(`screenshots/chat-${scheme}-${width}.png`) });
      }
    }

    // What a compaction replaced, from its divider: read-only, at the end of what it replaced.
    const sizes = [
      [1280, 800],
      [1024, 700],
    ] as const;
    await page.setViewportSize({ width: 1280, height: 800 });
    await log.getByRole('separator', { name: 'Conversation compacted' }).getByRole('button', { name: 'Show what it replaced' }).click();
    const before = page.getByRole('dialog', { name: 'Before this compaction (read-only)' });
    await before.getByRole('log').waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      for (const [width, height] of sizes) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height });
        await page.waitForTimeout(200);
        await page.screenshot({ path: docsShot(`screenshots/chat-before-compaction-${width}x${height}-${scheme}.png`) });
      }
    }
    await before.getByRole('button', { name: 'Close' }).click();

    // An edited question: its earlier version, which can be taken up again.
    await page.setViewportSize({ width: 1280, height: 800 });
    const question = log.locator('.message-block.user').filter({ hasText: 'When is the launch?' });
    await question.hover();
    await question.getByRole('button', { name: 'Edit' }).click();
    await question.getByLabel('Edit your question').fill('When is the launch, and where?');
    main.push(text('On **Friday**, at the harbour.'));
    await log.getByRole('button', { name: 'Send edited question' }).click();
    await log.getByText('at the harbour').waitFor();
    await settled();
    const edited = log.locator('.message-block.user').filter({ hasText: 'When is the launch, and where?' });
    await edited.getByText('1 earlier version').click();
    await edited.getByRole('button', { name: 'Continue from this version' }).waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      for (const [width, height] of sizes) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height });
        await bottom(page);
        await page.screenshot({ path: docsShot(`screenshots/chat-earlier-versions-${width}x${height}-${scheme}.png`) });
      }
    }
  }, 240_000);
});

async function bottom(page: Page): Promise<void> {
  const log = page.getByRole('log', { name: 'Conversation' });
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.waitForTimeout(300);
  await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.waitForTimeout(200);
}
