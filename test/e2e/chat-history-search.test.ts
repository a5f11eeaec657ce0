import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { TranscriptBuilder } from '../fixtures/transcripts/transcript-builder.js';
import { describe, expect, it } from 'vitest';
import { hasChromium } from './support/browser.js';
import { useChatApp } from './support/chat-fixture.js';
import { conversationLog as log } from './support/chat-page.js';
import { openScripted } from './support/scripted-chat.js';

/**
 * Past conversations found by search, in Chromium via `strata host`: a hit opens the conversation
 * scrolled to it, and a transcript of a project that is not open opens read-only — never as a file to edit.
 */
describe.skipIf(!hasChromium)('conversation search hits in Chromium via strata host', () => {
  const chat = useChatApp('strata-e2e-history-');

  it('opens a conversation search hit as the conversation in Chat, scrolled to the hit and marked, never as a file to edit', async () => {
    const { page, errors, project } = await openScripted(chat, 'history-search');
    const paths = await chat.app().services.vault().sessions.paths(project);
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
    const { page, errors } = await openScripted(chat, 'history-raw-elsewhere');
    const other = new TranscriptBuilder(randomUUID(), '/srv/elsewhere');
    other.user('Who signed off the blimp insurance?');
    other.assistant('The blimp insurance was signed by Ada.');
    const folder = path.join(chat.app().services.vault().root, 'projects', '-srv-elsewhere');
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
});
