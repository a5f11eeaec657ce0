import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { TranscriptBuilder } from '../fixtures/transcripts/transcript-builder.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiErrors, startFakeAnthropic, text, toolCalls, type FakeAnthropic, type ScriptedResponse, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';

const WORKLOG_LINE = '_A terse step-by-step log of what was tried and done_\n';


const lastUserText = (r: WireRequest): string => {
  const last = r.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};

/**
 * Conversations keep everything they showed: the answer after a slow Retry, and every card kind the
 * same live, after a reload and after the host restarts — in Chromium via `strata host`, the real
 * engines and the strict fake Messages API.
 */
describe.skipIf(!hasChromium)('conversation history in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  /** The main agent's answers come from `main`, in order; the background extractor gets `extractor`. */
  async function open(name: string, extractor?: (r: WireRequest) => ScriptedResponse | null, forks?: (r: WireRequest) => ScriptedResponse | null) {
    const main: ScriptedResponse[] = [];
    fake = await startFakeAnthropic({
      strict: true,
      respond: (r) => {
        const last = lastUserText(r);
        if (last.includes('You are the memory extractor') || (extractor && last.includes('tool_result') && JSON.stringify(r.messages).includes('You are the memory extractor'))) {
          return extractor?.(r) ?? text('Nothing to do.');
        }
        const fork = forks?.(r);
        if (fork) return fork;
        return main.shift() ?? text('(nothing scripted)');
      },
    });
    const appData = await tempDir();
    const project = path.join(await tempDir('strata-e2e-history-'), 'site');
    app = await startApp(appData, { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    return { page, errors, project, appData, script: (...r: ScriptedResponse[]) => main.push(...r) };
  }

  const log = (page: Page) => page.getByRole('log', { name: 'Conversation' });
  const answers = (page: Page) => log(page).getByRole('article', { name: 'Strata' });
  const settled = (page: Page) => page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  async function send(page: Page, prompt: string) {
    await page.getByLabel('Message', { exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  /** Every row of the (virtualised) conversation, top to bottom, by scrolling through it; what rows say, not their action buttons. */
  async function rows(page: Page): Promise<string[]> {
    const seen = new Map<number, string>();
    const style = await page.addStyleTag({ content: '.message-actions { display: none !important; }' });
    await log(page).evaluate((el) => (el.scrollTop = 0));
    for (let i = 0; i < 60; i++) {
      const batch = await log(page).evaluate((el) =>
        Array.from(el.querySelectorAll<HTMLElement>('.message-row'), (r) => [Number(r.dataset.index), r.innerText.replace(/\s+/g, ' ').trim()] as const),
      );
      for (const [index, t] of batch) seen.set(index, t);
      const done = await log(page).evaluate((el) => {
        const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
        el.scrollTop += el.clientHeight / 2;
        return end;
      });
      if (done) break;
      await page.waitForTimeout(50);
    }
    await style.evaluate((el) => (el as Element).remove());
    return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
  }

  it('shows the answer of a Retry pressed 9 s after a 529 in view under its question, while the notes update and the Retry compacts, after a denied write and a stop', async () => {
    let notesUpdates = 0;
    const { page, errors, project, script } = await open('history-slow-retry', undefined, (r) => {
      const last = lastUserText(r);
      const notesFile = /The notes file is (.+?)\. It has already been read/.exec(last)?.[1];
      if (notesFile) {
        notesUpdates += 1;
        // A slow notes update: the one after the denied write still runs while the user waits after the 529.
        return toolCalls([{ name: 'Edit', input: { file_path: notesFile, old_string: WORKLOG_LINE, new_string: `${WORKLOG_LINE}- step ${notesUpdates}\n` } }], { firstByteDelayMs: 8_000 });
      }
      if (last.includes('tool_result') && JSON.stringify(r.messages).includes('The notes file is ')) return text('Updated.');
      return null;
    });
    const vault = app!.services.vault();
    // Low thresholds: the notes update after every answer, and the question sent into the 529 takes the
    // context past the compaction threshold, so the Retry compacts (from the notes) before it asks again.
    await vault.settings.update({
      memory: {
        compaction: { contextWindow: 11_000, maxOutputTokens: 1_000, autoCompactBuffer: 1_000, keepMinTokens: 200, keepMinTextMessages: 1, keepMaxTokens: 3_000 },
        sessionMemory: { minTokensToInit: 300, minTokensBetweenUpdates: 100, toolCallsBetweenUpdates: 1 },
      },
    });
    const filler = 'Tell me about the launch plan and the checklist. '.repeat(200);
    script(text('First answer.'));
    await send(page, `The plan: ${filler}`);
    await answers(page).getByText('First answer.').waitFor();
    await settled(page);
    script(toolCalls([{ name: 'Write', input: { file_path: path.join(project, 'x.md'), content: 'x' } }]), text('Left it alone.'));
    await send(page, 'Write x');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Deny' }).click();
    await answers(page).getByText('Left it alone.').waitFor();
    await settled(page);
    script(text('word '.repeat(400), { chunkChars: 5, chunkDelayMs: 20 }));
    await send(page, `The checklist: ${filler}`);
    await answers(page).getByText(/word word/).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await settled(page);
    await log(page).getByRole('note', { name: 'Stopped' }).waitFor();

    script(apiErrors.overloaded());
    await send(page, `When is the launch? ${filler}`);
    const alert = page.getByRole('alert').filter({ hasText: 'The model is overloaded right now.' });
    await alert.waitFor();
    // Said once: the banner's advice, not the same words again under it.
    expect((await alert.innerText()).match(/overloaded/g)).toHaveLength(1);
    // While waiting, the user scrolls back a little to read what was said.
    await log(page).hover();
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(9_000);
    // The API answers 529, then (on Retry) waits before it streams.
    script(text('The launch is on Friday.', { firstByteDelayMs: 1_500 }));
    await alert.getByRole('button', { name: 'Retry' }).click();
    const answer = answers(page).getByText('The launch is on Friday.');
    await answer.waitFor();
    await expect.poll(() => alert.count()).toBe(0);
    await settled(page);
    expect(notesUpdates).toBeGreaterThanOrEqual(2);
    // Where the user looks: the answer is inside the conversation's visible area, not below it.
    const [box, frame] = [await answer.boundingBox(), await log(page).boundingBox()];
    expect(box!.y).toBeGreaterThanOrEqual(frame!.y);
    expect(box!.y + box!.height).toBeLessThanOrEqual(frame!.y + frame!.height);
    // Under its question: the question, the line left by the 529 (now saying Retry answered), the compaction the Retry ran, the answer.
    const live = await rows(page);
    const tail = live.slice(-5);
    expect(tail[0]).toMatch(/^When is the launch\?/);
    expect(tail.slice(1, 3)).toEqual(['The first try failed (the model was overloaded); Retry answered.', 'Compacted the conversation to make room.']);
    expect(tail[3]).toMatch(/^Compacted .* using the session notes Strata already keeps/);
    expect(tail[4]).toBe('The launch is on Friday.');
    // Reopened, it shows the same.
    await page.reload();
    await answers(page).getByText('The launch is on Friday.').waitFor();
    expect(await rows(page)).toEqual(live);

    // The divider shows what the compaction replaced, read-only, at its end: the question it was asked.
    await log(page).getByRole('separator', { name: 'Conversation compacted' }).getByRole('button', { name: 'Show what it replaced' }).click();
    const before = page.getByRole('dialog', { name: 'Before this compaction (read-only)' });
    const past = before.getByRole('log', { name: 'Conversation before the compaction' });
    await past.getByText('Left it alone.').waitFor();
    expect(await past.getByRole('article', { name: 'You' }).last().innerText()).toMatch(/^When is the launch\?/);
    expect(await past.getByRole('button').count()).toBe(0);
    await before.getByRole('button', { name: 'Show raw' }).click();
    expect(await before.getByLabel('Transcript records').innerText()).toContain('"type":"user"');
    await page.keyboard.press('Escape');
    await expect.poll(() => before.count()).toBe(0);
    // The notes updates this conversation started end here, not in the next test's time.
    await vault.chat.find((await vault.sessions.list(project))[0]!.sessionId)?.idle();
    expect(errors).toEqual([]);
  }, 120_000);

  it('renders the same cards live, after a reload and after the host restarts; the Inbox accept updates the chat card', async () => {
    let memoryDir = '';
    let proposed = false;
    const { page, errors, project, appData, script } = await open('history-cards', (r) => {
      if (lastUserText(r).includes('tool_result')) return text('Done.');
      if (proposed) return text('Nothing to do.');
      proposed = true;
      return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' } }]);
    });
    memoryDir = await memoryDirOf(app!.services, project);
    const vault = app!.services.vault();
    const settings = vault.settings.get();
    await vault.settings.update({ projects: { ...settings.projects, [project]: { ...settings.projects[project]!, extraction: true, reviewMode: true } } });

    const name = path.join(memoryDir, 'user_name.md');
    script(toolCalls([{ name: 'Write', input: { file_path: name, content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } }]), text('I will remember that.'));
    await send(page, 'Remember that my name is Ada');
    await page.getByRole('group', { name: 'Remembered: Their name' }).waitFor();
    await settled(page);
    script(toolCalls([{ name: 'Delete', input: { file_path: name } }]), text('Forgotten.'));
    await send(page, 'Forget my name');
    await page.getByRole('group', { name: 'Forgot: Their name' }).waitFor();
    await answers(page).getByText('Forgotten.').waitFor();
    await settled(page);
    script(toolCalls([{ name: 'Write', input: { file_path: path.join(project, 'notes.txt'), content: 'x' } }]), text('Left it alone.'));
    await send(page, 'Write notes.txt');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Deny' }).click();
    await answers(page).getByText('Left it alone.').waitFor();
    await settled(page);
    // A turn where the agent saved nothing: the background extractor proposes a memory for review.
    await page.getByRole('group', { name: 'Proposed memory: Prefers tabs' }).waitFor();
    script(text('<summary>1. Primary request: the name and the notes file.</summary>'));
    await page.getByRole('button', { name: 'Compact…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Compact now' }).click();
    await log(page).getByRole('separator', { name: 'Conversation compacted' }).waitFor();
    await settled(page);
    script(text('word '.repeat(400), { chunkChars: 5, chunkDelayMs: 20 }));
    await send(page, 'A long story');
    await answers(page).getByText(/word word/).last().waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    await settled(page);
    await log(page).getByRole('note', { name: 'Stopped' }).waitFor();

    // Accepted in the Inbox: the chat card says so, without a reload.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: 'Inbox (1)' }).click();
    const inbox = page.getByRole('region', { name: 'Review inbox' });
    await inbox.getByRole('article', { name: 'Remember: Prefers tabs' }).getByRole('button', { name: 'Accept' }).click();
    await inbox.getByText('No memory from your conversations is waiting.').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Chat/ }).click();
    const card = page.getByRole('group', { name: 'Proposed memory: Prefers tabs' });
    await card.getByText('Accepted').waitFor();
    expect(await card.getByRole('button', { name: 'Accept' }).count()).toBe(0);

    const live = await rows(page);
    expect(live.some((r) => r.startsWith('Remembered Their name'))).toBe(true);
    expect(live.some((r) => r.startsWith('Forgot Their name'))).toBe(true);
    expect(live.some((r) => r.startsWith('Accepted Prefers tabs'))).toBe(true);
    expect(live.some((r) => r.includes('Declined'))).toBe(true);
    expect(live.some((r) => r.startsWith('Compacted'))).toBe(true);
    expect(live.at(-1)).toBe('Stopped');
    expect(live.join('\n')).not.toContain('Compacting');

    // A reload returns to where the user was: this project, this conversation.
    await page.reload();
    await log(page).getByRole('note', { name: 'Stopped' }).waitFor();
    expect(await rows(page)).toEqual(live);

    // After a restart, in a fresh window: clicking the project opens its last conversation, not a new one.
    await app!.close();
    app = await startApp(appData, { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    const restarted = await openPage(browser(), app.host.url, 'history-cards-restarted');
    await restarted.page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await log(restarted.page).getByRole('note', { name: 'Stopped' }).waitFor();
    expect(await rows(restarted.page)).toEqual(live);
    expect(errors).toEqual([]);
    expect(restarted.errors).toEqual([]);
  }, 120_000);

  it('opens a conversation search hit as the conversation in Chat, scrolled to the hit and marked, never as a file to edit', async () => {
    const { page, errors, project } = await open('history-search');
    const paths = await app!.services.vault().sessions.paths(project);
    const sessionId = randomUUID();
    const t = new TranscriptBuilder(sessionId, paths.projectDir);
    for (let i = 0; i < 120; i++) {
      t.user(i === 20 ? 'Where did we park the zeppelin budget?' : `Question number ${i}`);
      t.assistant(i === 20 ? 'The zeppelin budget is in the shared drive.' : `Answer number ${i}`);
    }
    await fs.mkdir(paths.transcriptsDir, { recursive: true });
    await fs.writeFile(paths.transcriptFile(sessionId), t.jsonl());
    await page.reload();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Search text').fill('zeppelin');
    await page.locator('.results .result').first().click();

    const hit = log(page).locator('.message-row[aria-current="true"]');
    await hit.waitFor();
    expect(await hit.innerText()).toContain('zeppelin');
    // In view, in the conversation (the chat's title, its message box), not the vault editor.
    expect(await hit.isVisible()).toBe(true);
    await page.getByLabel('Message', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Rename', exact: true }).count()).toBe(0);
    expect(await log(page).getByText('Answer number 119', { exact: true }).count()).toBe(0);

    // The same from the chat's own search: what the conversations said, not only their titles.
    await log(page).evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.getByLabel('Search conversations').fill('zeppelin');
    await page.getByRole('region', { name: 'Found in conversations' }).getByRole('button').first().click();
    await hit.waitFor();
    expect(await hit.innerText()).toContain('zeppelin');
    expect(await hit.isVisible()).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('opens a transcript of a project that is not open read-only, as its records, never as a file to edit', async () => {
    const { page, errors } = await open('history-raw-elsewhere');
    const other = new TranscriptBuilder(randomUUID(), '/srv/elsewhere');
    other.user('Who signed off the blimp insurance?');
    other.assistant('The blimp insurance was signed by Ada.');
    const folder = path.join(app!.services.vault().root, 'projects', '-srv-elsewhere');
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, `${other.sessionId}.jsonl`), other.jsonl());

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('.results .result').filter({ hasText: 'blimp' }).first();
    // The file is indexed as the watcher sees it: search again until it is.
    await expect
      .poll(async () => {
        await page.getByLabel('Search text').fill('');
        await page.getByLabel('Search text').fill('blimp');
        return hit.isVisible();
      }, { timeout: 20_000 })
      .toBe(true);
    await hit.click();
    const raw = page.getByRole('dialog', { name: 'Transcript (read-only)' });
    await raw.getByText(/blimp insurance was signed by Ada/).waitFor();
    expect(await page.getByRole('button', { name: 'Rename', exact: true }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).waitFor();
    await raw.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => raw.count()).toBe(0);
    expect(errors).toEqual([]);
  }, 60_000);

  it('edits and resends a question as a branch: the old version stays reachable, and continuing from it makes it the conversation, also after a reload', async () => {
    const { page, errors, script } = await open('history-edit');
    script(text('Paris.'));
    await send(page, 'Capital of France?');
    await answers(page).getByText('Paris.').waitFor();
    await settled(page);
    script(text('Berlin.'));
    await send(page, 'Capital of Germny?');
    await answers(page).getByText('Berlin.', { exact: true }).waitFor();
    await settled(page);

    const question = log(page).locator('.message-block.user').filter({ hasText: 'Capital of Germny?' });
    await question.hover();
    await question.getByRole('button', { name: 'Edit' }).click();
    await question.getByLabel('Edit your question').fill('Capital of Germany?');
    script(text('Berlin, the capital of Germany.'));
    await log(page).getByRole('button', { name: 'Send edited question' }).click();
    await answers(page).getByText('Berlin, the capital of Germany.').waitFor();
    await settled(page);
    expect(await log(page).locator('.bubble', { hasText: 'Capital of Germny?' }).count()).toBe(0);

    const check = async (p: Page) => {
      const edited = log(p).locator('.message-block.user').filter({ hasText: 'Capital of Germany?' });
      await edited.getByText('1 earlier version').click();
      await edited.getByText('Capital of Germny?').waitFor();
      expect(await edited.getByText('Berlin.', { exact: true }).isVisible()).toBe(true);
    };
    await check(page);
    await page.reload();
    await answers(page).getByText('Berlin, the capital of Germany.').waitFor();
    await check(page);

    // The earlier version taken up again: it is the conversation, the one left is its earlier version.
    const edited = log(page).locator('.message-block.user').filter({ hasText: 'Capital of Germany?' });
    await edited.getByRole('button', { name: 'Continue from this version' }).click();
    const typo = log(page).locator('.message-block.user').filter({ has: page.locator('.bubble', { hasText: 'Capital of Germny?' }) });
    await typo.waitFor();
    expect(await answers(page).getByText('Berlin, the capital of Germany.').count()).toBe(0);
    await page.reload();
    await typo.getByText('1 earlier version').click();
    await typo.getByText('Berlin, the capital of Germany.').waitFor();
    script(text('Berlin has about 3.7 million people.'));
    await send(page, 'How many people live there?');
    await answers(page).getByText('Berlin has about 3.7 million people.').waitFor();
    const sent = JSON.stringify(fake!.requests.at(-1)!.body.messages);
    expect(sent).toContain('Capital of Germny?');
    expect(sent).not.toContain('Capital of Germany?');
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the model beside the message box and sends the next question to the one picked there', async () => {
    const { page, errors, script } = await open('history-model');
    const picker = page.getByRole('combobox', { name: 'Model' });
    expect(await picker.inputValue()).toBe('claude-test');
    await picker.selectOption('claude-haiku-4-5');
    await expect.poll(() => app!.services.vault().settings.get().model).toBe('claude-haiku-4-5');
    script(text('Quick answer.'));
    await send(page, 'Hello');
    await answers(page).getByText('Quick answer.').waitFor();
    expect(fake!.requests.at(-1)!.body.model).toBe('claude-haiku-4-5');
    expect(errors).toEqual([]);
  }, 60_000);

  it('says on the card when Undo would lose an edit made since, and offers the history instead of an error', async () => {
    const { page, errors, project, script } = await open('history-undo-conflict');
    const memoryDir = await memoryDirOf(app!.services, project);
    const file = path.join(memoryDir, 'user_name.md');
    script(toolCalls([{ name: 'Write', input: { file_path: file, content: '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n' } }]), text('Noted.'));
    await send(page, 'Remember that my name is Ada');
    const card = page.getByRole('group', { name: 'Remembered: Their name' });
    await card.waitFor();
    await settled(page);
    await fs.writeFile(file, '---\nname: Their name\ndescription: The user is called Ada Lovelace\ntype: user\n---\nThe user is called Ada Lovelace.\n');

    await card.getByRole('button', { name: 'Undo' }).click();
    await card.getByText(/changed after it was saved/).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toContain('Ada Lovelace');
    await card.getByRole('button', { name: 'Compare versions in History' }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).waitFor();
    expect(errors).toEqual([]);
  }, 60_000);

  it('a proposal decided elsewhere: its card says so; an app banner never pushes the composer under the status bar', async () => {
    let memoryDir = '';
    const { page, errors, project, script } = await open('history-stale-proposal', (r) =>
      lastUserText(r).includes('tool_result')
        ? text('Done.')
        : toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' } }]),
    );
    memoryDir = await memoryDirOf(app!.services, project);
    const vault = app!.services.vault();
    const settings = vault.settings.get();
    await vault.settings.update({ projects: { ...settings.projects, [project]: { ...settings.projects[project]!, extraction: true, reviewMode: true } } });
    script(text('Tabs, noted.'));
    await send(page, 'I indent with tabs.');
    const card = page.getByRole('group', { name: 'Proposed memory: Prefers tabs' });
    await card.waitFor();
    await settled(page);
    // Another process (the CLI) rejects it straight in the inbox: this window hears nothing.
    const [proposal] = await vault.chat.proposals(project);
    await vault.chat.inbox.resolve(memoryDir, proposal!.id, 'reject');
    await card.getByRole('button', { name: 'Accept' }).click();
    await card.getByText('already decided elsewhere').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    // An app-level banner (a conversation deleted behind the app's back, then clicked).
    const sessions = await vault.sessions.list(project);
    const paths = await vault.sessions.paths(project);
    await fs.rm(paths.transcriptFile(sessions[0]!.sessionId));
    await page.getByRole('region', { name: 'Conversations' }).getByRole('button', { name: 'I indent with tabs.', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'no longer exists' }).waitFor();
    const composerBox = await page.getByLabel('Message', { exact: true }).boundingBox();
    const statusBox = await page.locator('.status-bar').boundingBox();
    expect(composerBox!.y + composerBox!.height).toBeLessThanOrEqual(statusBox!.y);
    expect(errors).toEqual([]);
  }, 60_000);
});
