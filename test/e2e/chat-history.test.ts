import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiErrors, lastUserText, text, toolCalls } from '../fakes/anthropic-server/index.js';
import { hasChromium } from './support/browser.js';
import { memoryDirOf } from './support/chat-app.js';
import { useChatApp } from './support/chat-fixture.js';
import { answers, conversationLog as log, conversationRows as rows, send, settled } from './support/chat-page.js';
import { openScripted } from './support/scripted-chat.js';

const WORKLOG_LINE = '_A terse step-by-step log of what was tried and done_\n';

/**
 * Conversations keep everything they showed: the answer after a slow Retry, and every card kind the
 * same live, after a reload and after the host restarts — in Chromium via `strata host`, the real
 * engines and the strict fake Messages API. Search hits and edited questions have files of their own
 * (chat-history-search, chat-history-edit).
 */
describe.skipIf(!hasChromium)('conversation history in Chromium via strata host', () => {
  const chat = useChatApp('strata-e2e-history-');

  it('shows the answer of a Retry pressed 9 s after a 529 in view under its question, while the notes update and the Retry compacts, after a denied write and a stop', async () => {
    let notesUpdates = 0;
    const { page, errors, project, script } = await openScripted(chat, 'history-slow-retry', undefined, (r) => {
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
    const vault = chat.app().services.vault();
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
    const { page, errors, project, script } = await openScripted(chat, 'history-cards', (r) => {
      if (lastUserText(r).includes('tool_result')) return text('Done.');
      if (proposed) return text('Nothing to do.');
      proposed = true;
      return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' } }]);
    });
    memoryDir = await memoryDirOf(chat.app().services, project);
    const vault = chat.app().services.vault();
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
    await chat.restart();
    const restarted = await chat.openTab('history-cards-restarted');
    await log(restarted.page).getByRole('note', { name: 'Stopped' }).waitFor();
    expect(await rows(restarted.page)).toEqual(live);
    expect(errors).toEqual([]);
    expect(restarted.errors).toEqual([]);
  }, 120_000);

  it('says on the card when Undo would lose an edit made since, and offers the history instead of an error', async () => {
    const { page, errors, project, script } = await openScripted(chat, 'history-undo-conflict');
    const memoryDir = await memoryDirOf(chat.app().services, project);
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
    const { page, errors, project, script } = await openScripted(chat, 'history-stale-proposal', (r) =>
      lastUserText(r).includes('tool_result')
        ? text('Done.')
        : toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' } }]),
    );
    memoryDir = await memoryDirOf(chat.app().services, project);
    const vault = chat.app().services.vault();
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
