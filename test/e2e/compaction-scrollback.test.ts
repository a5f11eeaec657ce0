import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastUserText, startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';

const LONG = Array.from({ length: 12 }, (_, i) => `- Point ${i + 1}: a line of the answer that takes some room on the screen.`).join('\n');
const memory = (name: string, body: string) => `---\nname: ${name}\ndescription: ${body}\ntype: user\n---\n${body}\n`;

/**
 * docs/memory.md#compaction: compaction shrinks what the model is sent, never what the user sees. Three
 * turns that each show a memory card, Compact now from the session notes (keeping only the newest
 * messages word for word), one more question: every card is still in the conversation, live and after
 * a reload. In Chromium via `strata host` and the strict fake Messages API.
 */
describe.skipIf(!hasChromium)('a compaction keeps the scrollback in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('shows all three memory cards above the divider after Compact now, a question and a reload', async () => {
    let memoryDir = '';
    let steps = 0;
    let answers = 0;
    fake = await startFakeAnthropic({
      strict: true,
      respond: (r) => {
        const last = lastUserText(r);
        if (last.includes('current_notes_content')) {
          const notesPath = /The notes file is (.+)\. It has already been read/.exec(last)![1]!;
          return toolCalls([{ name: 'Edit', input: { file_path: notesPath, old_string: '# Worklog\n', new_string: `# Worklog\n- step ${++steps}: noted what to remember\n` } }]);
        }
        if (JSON.stringify(r.messages).includes('keep the session notes file current')) return text('Notes updated.');
        // Long answers: the first turns are far out of view (and out of the virtualised list's DOM).
        if (last.includes('tool_result')) return text(`Done with request ${++answers}.\n\n${LONG}`);
        if (last.includes('prefer tabs')) return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: memory('Prefers tabs', 'Indent with tabs') } }]);
        if (last.includes('Friday')) return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'project_launch.md'), content: memory('Launch day', 'The launch is on Friday') } }]);
        if (last.includes('forget')) return toolCalls([{ name: 'Delete', input: { file_path: path.join(memoryDir, 'feedback_tabs.md') } }]);
        return text('The launch is on Friday.');
      },
    });
    const project = path.join(await tempDir('strata-e2e-scrollback-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    memoryDir = await memoryDirOf(app.services, project);
    // Notes after every turn, and a kept window of about one turn: the first turns fall before it.
    await app.services.vault().settings.update({
      memory: {
        sessionMemory: { minTokensToInit: 50, minTokensBetweenUpdates: 50, toolCallsBetweenUpdates: 1, maxSectionTokens: 2000, maxTotalTokens: 12000 },
        compaction: { keepMinTokens: 100, keepMinTextMessages: 2, keepMaxTokens: 400 },
      },
    });
    const { page, errors } = await openPage(browser(), app.host.url, 'compaction-scrollback');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    const log = page.getByRole('log', { name: 'Conversation' });
    const send = async (prompt: string, answer: string) => {
      await page.getByLabel('Message', { exact: true }).fill(prompt);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await log.getByText(answer).waitFor();
      await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
    };
    const paths = await app.services.vault().sessions.paths(project);
    const idle = async () => {
      const [file] = (await fs.readdir(paths.transcriptsDir)).filter((f) => f.endsWith('.jsonl'));
      await app!.services.vault().chat.find(path.basename(file!, '.jsonl'))!.idle();
    };
    const prompts = ['Remember that I prefer tabs', 'Remember that the launch is on Friday', 'Please forget the tabs preference'];
    for (const [i, prompt] of prompts.entries()) {
      await send(prompt, `Done with request ${i + 1}.`);
      // The notes cover each turn before the next (a compaction from them keeps only what they do not).
      await idle();
    }
    const cards = log.getByRole('group', { name: /^(Remembered|Updated memory|Forgot):/ });

    await page.getByRole('button', { name: 'Compact…' }).click();
    await page.getByRole('button', { name: 'Compact now' }).click();
    const divider = log.getByRole('separator', { name: 'Conversation compacted' });
    await divider.waitFor();
    expect(await divider.innerText()).toMatch(/The last \d+ messages were kept word for word/);
    await send('When is the launch?', 'The launch is on Friday.');
    // The cards and the divider, in the order the conversation shows them: the list is virtualised, so it
    // is read by scrolling from the top to the bottom as a person would.
    const shown = log.locator('.memory-card, .compaction-divider');
    const readDown = async () => {
      const seen: string[] = [];
      await log.evaluate((el) => (el.scrollTop = 0));
      for (let end = false; !end; ) {
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        for (const label of await shown.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))) if (!seen.includes(label)) seen.push(label);
        end = await log.evaluate((el) => {
          const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
          el.scrollTop += el.clientHeight / 2;
          return atEnd;
        });
      }
      return seen;
    };
    const all = ['Remembered: Prefers tabs', 'Remembered: Launch day', 'Forgot: Prefers tabs', 'Conversation compacted'];
    // At the bottom the first card is out of the DOM (and out of the kept window): only scrolling up brings it.
    // Polled: on a loaded machine the list may not have followed the answer to the bottom yet.
    await expect.poll(() => cards.count()).toBeLessThan(3);
    expect(await readDown()).toEqual(all);

    await page.reload();
    await page.getByRole('region', { name: 'Conversations' }).getByRole('button', { name: 'Remember that I prefer tabs', exact: true }).click();
    await log.getByText('When is the launch?').waitFor();
    expect(await readDown()).toEqual(all);
    expect(errors).toEqual([]);
  });
});
