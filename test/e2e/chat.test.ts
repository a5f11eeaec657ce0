import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiErrors, startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';


const exists = (file: string) => fs.access(file).then(() => true, () => false);
/** The messages of the fake's request `at` (the newest by default). */
const sentMessages = (fake: FakeAnthropic, at = -1) => fake.requests.at(at)?.body.messages ?? [];

/**
 * The chat in Chromium via `strata host`: the real engines, the real SDK and the strict fake Messages
 * API on loopback, scripted per test. Every request the app sends must be one the strict fake accepts.
 */
describe.skipIf(!hasChromium)('the chat in Chromium via strata host and the fake Messages API', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  async function open(name: string) {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-chat-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    return { page, errors, project, fake };
  }

  const composer = (page: Page) => page.getByLabel('Message', { exact: true });
  const answers = (page: Page) => page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Strata' });
  const conversations = (page: Page) => page.getByRole('region', { name: 'Conversations' });

  async function send(page: Page, prompt: string) {
    await composer(page).fill(prompt);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  /** Waits until the turn has ended: Send is back (the composer's Stop is gone). */
  async function settled(page: Page) {
    await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  }

  const allAccepted = (f: FakeAnthropic) => expect(f.requests.map((r) => r.rejected)).toEqual(f.requests.map(() => null));

  it('streams an answer into the conversation as it arrives, shows the context meter, and is accessible', async () => {
    const { page, errors, fake } = await open('chat-stream');
    const answer = 'The launch is on **Friday**, after the final review of the release notes and the checklist.';
    fake.enqueue(text(answer, { chunkChars: 3, chunkDelayMs: 25 }));

    // Records every length the answer's text had on screen, from the first render on.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { seenLengths: number[] }).seenLengths = seen;
      new MutationObserver(() => {
        const article = document.querySelector('[role="log"] article[aria-label="Strata"]');
        const length = article?.textContent?.length ?? 0;
        if (length > 0 && seen.at(-1) !== length) seen.push(length);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await send(page, 'When is the launch?');
    await page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'You' }).getByText('When is the launch?').waitFor();
    await answers(page).getByText('The launch is on Friday, after the final review of the release notes and the checklist.').waitFor();
    await expect.poll(() => answers(page).getAttribute('aria-busy')).toBeNull();
    await settled(page);

    const full = 'The launch is on Friday, after the final review of the release notes and the checklist.'.length;
    const seen = await page.evaluate(() => (window as unknown as { seenLengths: number[] }).seenLengths);
    // Streamed: the answer grew on screen in many steps before it was whole.
    expect(seen.filter((n) => n < full).length).toBeGreaterThan(5);
    expect(seen.at(-1)).toBe(full);
    expect(await answers(page).locator('strong').textContent()).toBe('Friday');

    // The session is titled by its first prompt, and listed.
    await page.getByRole('heading', { name: 'When is the launch?', level: 1 }).waitFor();
    await conversations(page).getByRole('button', { name: 'When is the launch?', exact: true }).waitFor();

    // The context meter shows what the turn used against the compaction threshold.
    const meter = page.getByRole('meter', { name: 'Context used' });
    expect(await meter.isVisible()).toBe(true);
    await expect.poll(async () => Number(await meter.getAttribute('value'))).toBeGreaterThan(0);
    expect(Number(await meter.getAttribute('max'))).toBeGreaterThan(Number(await meter.getAttribute('value')));
    await page.getByText(/^\d+k \/ \d+k tokens$/).waitFor();

    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(sentMessages(fake, 0))).toContain('When is the launch?');
    allAccepted(fake);
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  it('asks before creating a file with its name and content, keeps the keyboard in the dialog; Create once writes it', async () => {
    const { page, errors, project, fake } = await open('chat-permission');
    const target = path.join(project, 'plan.md');
    // Long enough that the diff scrolls in the dialog and the tool card.
    const plan = `# Plan\n\n- Ship it\n${Array.from({ length: 60 }, (_, i) => `- Step ${i + 1}: ${'check the release notes '.repeat(3)}`).join('\n')}\n`;
    fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: plan } }]), text('I wrote the plan.'));
    await send(page, 'Write a plan to plan.md');

    // A new file: named, with its content (not a raw unified diff).
    const dialog = page.getByRole('alertdialog', { name: 'Create plan.md?' });
    await dialog.waitFor();
    expect(await dialog.getByText(target, { exact: true }).isVisible()).toBe(true);
    expect(await dialog.getByLabel('Content of plan.md').textContent()).toBe(plan);
    expect(await dialog.textContent()).not.toMatch(/^(\+\+\+|---|@@)/m);
    expect(await exists(target)).toBe(false);
    await expectAccessible(page);
    // Modal: the keyboard never reaches Stop or the composer behind it.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 2 ? 'Tab' : 'Shift+Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Create once' }).click();

    await expect.poll(() => fs.readFile(target, 'utf8').catch(() => null)).toBe(plan);
    await answers(page).getByText('I wrote the plan.').waitFor();
    expect(await dialog.count()).toBe(0);
    // The tool card, collapsed, says what ran and that it is done; expanded, what it wrote (its raw input behind Show raw).
    const card = page.getByRole('button', { name: /Write.*plan\.md.*Done/ });
    await card.click();
    expect(await card.getAttribute('aria-expanded')).toBe('true');
    await page.getByText(`Wrote plan.md · ${plan.split('\n').length - 1} lines`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show raw' }).last().click();
    await page.getByText('"file_path"', { exact: false }).first().waitFor();
    await settled(page);
    await expectAccessible(page);
    // The tool result went back to the model, which ended its turn.
    expect(JSON.stringify(sentMessages(fake).at(-1))).toContain('tool_result');
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('shows a change to an existing file side by side, with only the changed lines marked', async () => {
    const { page, errors, project, fake } = await open('chat-permission-edit');
    const target = path.join(project, 'todo.md');
    const lines = Array.from({ length: 40 }, (_, i) => `- item ${i + 1}`);
    await fs.writeFile(target, `${lines.join('\n')}\n`);
    fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: target } }]),
      toolCalls([{ name: 'Edit', input: { file_path: target, old_string: '- item 20\n', new_string: '- item 20 (done)\n' } }]),
      text('Marked it done.'),
    );
    await send(page, 'Mark item 20 done in todo.md');
    const dialog = page.getByRole('alertdialog', { name: 'Allow Strata to edit todo.md?' });
    await dialog.waitFor();
    await dialog.getByLabel('Now').waitFor();
    expect(await dialog.getByLabel('After the change').textContent()).toContain('- item 20 (done)');
    expect(await dialog.getByLabel('Now').textContent()).not.toContain('(done)');
    expect(await dialog.locator('.cm-changedLine').count()).toBeGreaterThan(0);
    expect(await dialog.textContent()).not.toMatch(/@@ -/);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await answers(page).getByText('Marked it done.').waitFor();
    expect(await fs.readFile(target, 'utf8')).toContain('- item 20 (done)\n');
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('closes the permission dialog in every tab once one tab answered it', async () => {
    const { page, project, fake } = await open('chat-permission-two-tabs');
    const other = await openPage(browser(), app!.host.url, 'chat-permission-other-tab');
    await other.page.getByRole('heading', { name: 'Choose a project' }).waitFor();
    const target = path.join(project, 'shared.md');
    fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'from one tab\n' } }]), text('Written.'));
    await send(page, 'Write shared.md');
    const dialogIn = (p: Page) => p.getByRole('alertdialog', { name: 'Create shared.md?' });
    await dialogIn(page).waitFor();
    await dialogIn(other.page).waitFor();

    await dialogIn(page).getByRole('button', { name: 'Create once' }).click();
    await answers(page).getByText('Written.').waitFor();
    expect(await fs.readFile(target, 'utf8')).toBe('from one tab\n');
    // The other tab no longer offers an answer to a question that is settled.
    await expect.poll(() => dialogIn(other.page).count()).toBe(0);
    expect(other.errors).toEqual([]);
    allAccepted(fake);
  });

  it('Deny in the permission dialog leaves the file alone and tells the model', async () => {
    const { page, project, fake } = await open('chat-deny');
    const target = path.join(project, 'secret-plan.md');
    fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'nope' } }]), text('Understood, I left it.'));
    await send(page, 'Write secret-plan.md');
    const dialog = page.getByRole('alertdialog', { name: 'Create secret-plan.md?' });
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await answers(page).getByText('Understood, I left it.').waitFor();
    // The card says the user declined it, not that the write was done or failed.
    await page.getByRole('button', { name: /Write.*secret-plan\.md.*Declined/ }).waitFor();
    expect(await exists(target)).toBe(false);
    expect(JSON.stringify(sentMessages(fake).at(-1))).toContain('The user declined this Write');
    allAccepted(fake);
  });

  it('stops a long answer with the Stop button; the composer is usable again and the next turn is accepted', async () => {
    const { page, fake } = await open('chat-stop');
    const long = 'word '.repeat(800);
    fake.enqueue(text(long, { chunkChars: 5, chunkDelayMs: 15 }));
    await send(page, 'Tell me a long story');
    const stop = page.getByRole('button', { name: /^Stop/ });
    await stop.waitFor();
    // Some of the answer is on screen, then the user stops it.
    await expect.poll(async () => (await answers(page).textContent())?.length ?? 0).toBeGreaterThan(20);
    await stop.click();
    await settled(page);
    expect(await stop.count()).toBe(0);
    await expect.poll(() => answers(page).getAttribute('aria-busy')).toBeNull();
    const kept = (await answers(page).textContent()) ?? '';
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(long.trim().length);

    // The composer takes the next prompt, and the strict fake accepts the transcript after the abort.
    expect(await composer(page).isEnabled()).toBe(true);
    const wide = `const ending = '${'and they lived happily ever after, '.repeat(8)}';`;
    fake.enqueue(text(`Short version: the end.\n\n\`\`\`ts\n${wide}\n\`\`\`\n`));
    await send(page, 'Shorter please');
    await answers(page).getByText('Short version: the end.').waitFor();
    await settled(page);
    // The answer's code block, wider than the pane, is highlighted, copyable and reachable from the keyboard.
    await answers(page).last().getByRole('button', { name: 'Copy code' }).waitFor();
    expect(await answers(page).last().locator('pre code').textContent()).toBe(`${wide}\n`);
    await expectAccessible(page);
    expect(await composer(page).inputValue()).toBe('');
    // Nothing of the stopped answer streamed in after Stop, through a whole further turn.
    expect(await answers(page).first().textContent()).toBe(kept);
    expect(fake.requests).toHaveLength(2);
    expect(JSON.stringify(sentMessages(fake, 1))).toContain('Shorter please');
    allAccepted(fake);
  });

  it('switches between two conversations in the session list, each with its own messages', async () => {
    const { page, fake } = await open('chat-sessions');
    fake.enqueue(text('Alpha answer.'));
    await send(page, 'Alpha question');
    await answers(page).getByText('Alpha answer.').waitFor();
    await settled(page);

    await conversations(page).getByRole('button', { name: /^New conversation/ }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    expect(await page.getByText('Alpha answer.').count()).toBe(0);
    fake.enqueue(text('Beta answer.'));
    await send(page, 'Beta question');
    await answers(page).getByText('Beta answer.').waitFor();
    await settled(page);
    // The second conversation started fresh: only its own prompt went to the model.
    expect(JSON.stringify(sentMessages(fake, 1))).not.toContain('Alpha');

    const list = conversations(page);
    const alpha = list.getByRole('button', { name: 'Alpha question', exact: true });
    const beta = list.getByRole('button', { name: 'Beta question', exact: true });
    await alpha.click();
    await page.getByRole('heading', { name: 'Alpha question', level: 1 }).waitFor();
    await answers(page).getByText('Alpha answer.').waitFor();
    expect(await page.getByText('Beta answer.').count()).toBe(0);
    expect(await alpha.getAttribute('aria-current')).toBe('true');

    await beta.click();
    await page.getByRole('heading', { name: 'Beta question', level: 1 }).waitFor();
    await answers(page).getByText('Beta answer.').waitFor();
    expect(await page.getByText('Alpha answer.').count()).toBe(0);
    expect(await beta.getAttribute('aria-current')).toBe('true');

    // Back to the first, and it continues with its own history.
    await alpha.click();
    await answers(page).getByText('Alpha answer.').waitFor();
    fake.enqueue(text('Alpha follow-up.'));
    await send(page, 'And then?');
    await answers(page).getByText('Alpha follow-up.').waitFor();
    const sent = JSON.stringify(sentMessages(fake));
    expect(sent).toContain('Alpha question');
    expect(sent).not.toContain('Beta');
    allAccepted(fake);

    // Renamed in the list, the open conversation's heading follows.
    await settled(page);
    await list.getByRole('button', { name: 'Rename Alpha question' }).click();
    await list.getByLabel('New title').fill('Launch planning');
    await page.keyboard.press('Enter');
    await list.getByRole('button', { name: 'Launch planning', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Launch planning', level: 1 }).waitFor();
  });

  it('shows a memory the agent saves as a card, and its Undo removes the file', async () => {
    const { page, errors, project, fake } = await open('chat-memory');
    const memoryDir = await memoryDirOf(app!.services, project);
    const file = path.join(memoryDir, 'user_name.md');
    const index = path.join(memoryDir, 'MEMORY.md');
    fake.enqueue(
      toolCalls([
        { name: 'Write', input: { file_path: file, content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } },
        { name: 'Write', input: { file_path: index, content: '- [Their name](user_name.md) — called Ada\n' } },
      ]),
      text('I will remember that.'),
    );
    await send(page, 'Remember that my name is Ada');
    const card = page.getByRole('group', { name: 'Remembered: Their name' });
    await card.waitFor();
    await answers(page).getByText('I will remember that.').waitFor();
    // Memory writes do not ask.
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await exists(file)).toBe(true);
    await card.getByRole('button', { name: 'Their name' }).click();
    expect(await card.getByText('+The user is called Ada.').isVisible()).toBe(true);
    await expectAccessible(page);

    await card.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => exists(file)).toBe(false);
    await expect.poll(() => fs.readFile(index, 'utf8').catch(() => '')).not.toContain('user_name.md');
    await card.getByText('Undone').waitFor();
    expect(await card.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  const errorCases = [
    { status: '529', scripted: apiErrors.overloaded(), banner: 'The model is overloaded right now. Try again in a moment.' },
    { status: '429', scripted: apiErrors.rateLimited(17), banner: 'Rate limited — try again in 17 s.' },
    { status: '401', scripted: apiErrors.invalidKey(), banner: 'The API key was refused. Check it in Settings.' },
  ];
  for (const { status, scripted, banner } of errorCases) {
    it(`shows a ${status} as a banner whose Retry continues the conversation`, async () => {
      const { page, errors, fake } = await open(`chat-error-${status}`);
      fake.enqueue(scripted);
      await send(page, 'Hello');
      const alert = page.getByRole('alert').filter({ hasText: banner });
      await alert.waitFor();
      await settled(page);
      // One banner, this error's own.
      expect(await page.getByRole('alert').count()).toBe(1);
      expect(await answers(page).count()).toBe(0);
      await expectAccessible(page);

      fake.enqueue(text('Hello again.'));
      await alert.getByRole('button', { name: 'Retry' }).click();
      await answers(page).getByText('Hello again.').waitFor();
      await expect.poll(() => alert.count()).toBe(0);
      await settled(page);
      // The retried turn is the same prompt, once, and the strict fake accepted it.
      const sent = sentMessages(fake);
      expect(sent.filter((m) => m.role === 'user')).toHaveLength(1);
      expect(JSON.stringify(sent)).toContain('Hello');
      allAccepted(fake);
      expect(errors).toEqual([]);
    });
  }

  it('shows a 400 prompt too long as a banner whose Retry compacts the conversation, then answers', async () => {
    const { page, errors, fake } = await open('chat-error-400');
    fake.enqueue(text('The parser keeps a stack of open blocks.'));
    await send(page, 'How does the parser work?');
    await answers(page).getByText('The parser keeps a stack of open blocks.').waitFor();
    await settled(page);
    fake.enqueue(apiErrors.promptTooLong());
    await send(page, 'And nested blocks?');
    const alert = page.getByRole('alert').filter({ hasText: 'The conversation is too long for the model. Retry compacts it first; or start a new one.' });
    await alert.waitFor();
    await settled(page);
    expect(await page.getByRole('alert').count()).toBe(1);
    await expectAccessible(page);

    fake.enqueue(
      text('<analysis>scratch</analysis><summary>1. Primary request: explain the parser, now nested blocks.</summary>'),
      text('Nested blocks push onto the stack.'),
    );
    await alert.getByRole('button', { name: 'Retry' }).click();
    await answers(page).getByText('Nested blocks push onto the stack.').waitFor();
    await expect.poll(() => alert.count()).toBe(0);
    await settled(page);
    // The divider shows the compaction that made room; the strict fake accepted every request.
    await page.getByText(/^Compacted .* tokens using/).waitFor();
    expect(JSON.stringify(sentMessages(fake))).toContain('explain the parser, now nested blocks');
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('says the model cannot be reached when the connection is refused; Retry continues once the base URL answers', async () => {
    const { page, errors, fake } = await open('chat-error-offline');
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    await app!.services.vault().settings.update({ baseUrl: `http://127.0.0.1:${closed}` });
    await send(page, 'Hello');
    const alert = page.getByRole('alert').filter({ hasText: 'Strata cannot reach the model; your conversation is saved.' });
    await alert.waitFor();
    // The advice and the detail under it say "check your connection" once between them.
    expect((await alert.textContent())!.match(/connection/gi)).toHaveLength(1);
    await settled(page);
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(fake.requests).toHaveLength(0);
    await expectAccessible(page);

    await app!.services.vault().settings.update({ baseUrl: fake.url });
    fake.enqueue(text('Back online.'));
    await alert.getByRole('button', { name: 'Retry' }).click();
    await answers(page).getByText('Back online.').waitFor();
    await expect.poll(() => alert.count()).toBe(0);
    await settled(page);
    expect(sentMessages(fake).filter((m) => m.role === 'user')).toHaveLength(1);
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('comes back after the host restarts: the conversation is listed, opens whole, and continues with its history', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-chat-'), 'site');
    const appData = await tempDir();
    app = await startApp(appData, { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    let { page } = await openPage(browser(), app.host.url, 'chat-resume');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    fake.enqueue(toolCalls([{ name: 'Glob', input: { pattern: '*.md' } }]), text('There are no markdown files yet.'));
    await send(page, 'Which notes do we have?');
    await answers(page).getByText('There are no markdown files yet.').waitFor();
    await settled(page);
    await app.close();

    // The next day: a new host on the same app data, a new tab.
    app = await startApp(appData, { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    ({ page } = await openPage(browser(), app.host.url, 'chat-resume-2'));
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await conversations(page).getByRole('button', { name: 'Which notes do we have?', exact: true }).click();
    await page.getByRole('heading', { name: 'Which notes do we have?', level: 1 }).waitFor();
    await answers(page).getByText('There are no markdown files yet.').waitFor();
    await page.getByRole('button', { name: /Glob.*Done/ }).waitFor();

    fake.enqueue(text('Then let us start one.'));
    await send(page, 'And now?');
    await answers(page).getByText('Then let us start one.').waitFor();
    await settled(page);
    const sent = JSON.stringify(sentMessages(fake));
    expect(sent).toContain('Which notes do we have?');
    expect(sent).toContain('tool_result');
    expect(sent).toContain('And now?');
    allAccepted(fake);
  });

  it('opens the session notes as a drawer in a narrow window, where they have no room beside the conversation', async () => {
    const { page, errors } = await open('chat-notes-narrow');
    const notes = page.getByRole('complementary', { name: 'Session notes' });
    await notes.waitFor();
    await page.setViewportSize({ width: 1024, height: 700 });
    // Not squeezed beside the conversation, and not gone without a way back: a button opens them.
    await notes.waitFor({ state: 'hidden' });
    const show = page.getByRole('button', { name: 'Session notes', exact: true });
    await show.click();
    await notes.getByText(/Notes start once the conversation has some substance/).waitFor();
    expect(await notes.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await notes.waitFor({ state: 'hidden' });
    expect(await show.evaluate((el) => el === document.activeElement)).toBe(true);
    // Back in a wide window the notes sit beside the conversation again.
    await page.setViewportSize({ width: 1280, height: 800 });
    await notes.waitFor();
    expect(errors).toEqual([]);
  });
});
