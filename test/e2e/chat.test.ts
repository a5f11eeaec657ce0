import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, toolCalls } from '../fakes/anthropic-server/index.js';
import { expectAccessible, hasChromium } from './support/browser.js';
import { memoryDirOf } from './support/chat-app.js';
import { useChatApp } from './support/chat-fixture.js';
import { allAccepted, answers, composer, conversations, send, sentMessages, settled } from './support/chat-page.js';

const exists = (file: string) => fs.access(file).then(() => true, () => false);

/**
 * The chat in Chromium via `strata host`: the real engines, the real SDK and the strict fake Messages
 * API on loopback, scripted per test. Every request the app sends must be one the strict fake accepts.
 * The permission dialog and the error banners have files of their own (chat-permission, chat-errors).
 */
describe.skipIf(!hasChromium)('the chat in Chromium via strata host and the fake Messages API', () => {
  const chat = useChatApp('strata-e2e-chat-');

  it('streams an answer into the conversation as it arrives, shows the context meter, and is accessible', async () => {
    const { page, errors, fake } = await chat.open('chat-stream');
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

  it('stops a long answer with the Stop button; the composer is usable again and the next turn is accepted', async () => {
    const { page, fake } = await chat.open('chat-stop');
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
    const { page, fake } = await chat.open('chat-sessions');
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
    const { page, errors, project, fake } = await chat.open('chat-memory');
    const memoryDir = await memoryDirOf(chat.app().services, project);
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

  it('comes back after the host restarts: the conversation is listed, opens whole, and continues with its history', async () => {
    await chat.start();
    const fake = chat.fake();
    let { page } = await chat.openTab('chat-resume');
    fake.enqueue(toolCalls([{ name: 'Glob', input: { pattern: '*.md' } }]), text('There are no markdown files yet.'));
    await send(page, 'Which notes do we have?');
    await answers(page).getByText('There are no markdown files yet.').waitFor();
    await settled(page);

    // The next day: a new host on the same app data, a new tab.
    await chat.restart();
    ({ page } = await chat.openTab('chat-resume-2'));
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
    const { page, errors } = await chat.open('chat-notes-narrow');
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
