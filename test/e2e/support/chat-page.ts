import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FakeAnthropic } from '../../fakes/anthropic-server/index.js';

/** The chat's message box. */
export const composer = (page: Page) => page.getByLabel('Message', { exact: true });
/** The conversation, as its rows are on screen. */
export const conversationLog = (page: Page) => page.getByRole('log', { name: 'Conversation' });
/** Strata's answers in the conversation. */
export const answers = (page: Page) => conversationLog(page).getByRole('article', { name: 'Strata' });
/** The list of the project's conversations. */
export const conversations = (page: Page) => page.getByRole('region', { name: 'Conversations' });

/** Types `prompt` into the message box and presses Send. */
export async function send(page: Page, prompt: string): Promise<void> {
  await composer(page).fill(prompt);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Waits until the turn has ended: Send is back (the composer's Stop is gone). */
export async function settled(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
}

/** The messages of the fake's request `at` (the newest by default). */
export const sentMessages = (fake: FakeAnthropic, at = -1) => fake.requests.at(at)?.body.messages ?? [];

/** The strict fake accepted every request the app sent. */
export const allAccepted = (fake: FakeAnthropic) => expect(fake.requests.map((r) => r.rejected)).toEqual(fake.requests.map(() => null));

/** Every row of the (virtualised) conversation, top to bottom, by scrolling through it; what rows say, not their action buttons. */
export async function conversationRows(page: Page): Promise<string[]> {
  const log = conversationLog(page);
  const seen = new Map<number, string>();
  const style = await page.addStyleTag({ content: '.message-actions { display: none !important; }' });
  await log.evaluate((el) => (el.scrollTop = 0));
  for (let i = 0; i < 60; i++) {
    const batch = await log.evaluate((el) =>
      Array.from(el.querySelectorAll<HTMLElement>('.message-row'), (r) => [Number(r.dataset.index), r.innerText.replace(/\s+/g, ' ').trim()] as const),
    );
    for (const [index, t] of batch) seen.set(index, t);
    const done = await log.evaluate((el) => {
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
