import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { text } from '../fakes/anthropic-server/index.js';
import { hasChromium } from './support/browser.js';
import { useChatApp } from './support/chat-fixture.js';
import { answers, conversationLog as log, send, settled } from './support/chat-page.js';
import { openScripted } from './support/scripted-chat.js';

/**
 * What the next question is sent as, in Chromium via `strata host` and the strict fake Messages API: an
 * edited question as a branch of the conversation, with the version it replaced kept, and to the model
 * picked beside the message box.
 */
describe.skipIf(!hasChromium)('editing and resending questions in Chromium via strata host', () => {
  const chat = useChatApp('strata-e2e-history-');

  it('edits and resends a question as a branch: the old version stays reachable, and continuing from it makes it the conversation, also after a reload', async () => {
    const { page, errors, script } = await openScripted(chat, 'history-edit');
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
    const sent = JSON.stringify(chat.fake().requests.at(-1)!.body.messages);
    expect(sent).toContain('Capital of Germny?');
    expect(sent).not.toContain('Capital of Germany?');
    expect(errors).toEqual([]);
  }, 60_000);

  it('shows the model beside the message box and sends the next question to the one picked there', async () => {
    const { page, errors, script } = await openScripted(chat, 'history-model');
    const picker = page.getByRole('combobox', { name: 'Model' });
    expect(await picker.inputValue()).toBe('claude-test');
    await picker.selectOption('claude-haiku-4-5');
    await expect.poll(() => chat.app().services.vault().settings.get().model).toBe('claude-haiku-4-5');
    script(text('Quick answer.'));
    await send(page, 'Hello');
    await answers(page).getByText('Quick answer.').waitFor();
    expect(chat.fake().requests.at(-1)!.body.model).toBe('claude-haiku-4-5');
    expect(errors).toEqual([]);
  }, 60_000);
});
