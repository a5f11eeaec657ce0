import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { apiErrors, text } from '../fakes/anthropic-server/index.js';
import { expectAccessible, hasChromium } from './support/browser.js';
import { useChatApp } from './support/chat-fixture.js';
import { allAccepted, answers, send, sentMessages, settled } from './support/chat-page.js';

/**
 * The chat's error banners in Chromium via `strata host` and the strict fake Messages API: each API
 * error and a refused connection as one banner in words, whose Retry continues the conversation.
 */
describe.skipIf(!hasChromium)('the error banners of the chat in Chromium via strata host', () => {
  const chat = useChatApp('strata-e2e-chat-');

  const errorCases = [
    { status: '529', scripted: apiErrors.overloaded(), banner: 'The model is overloaded right now. Try again in a moment.' },
    { status: '429', scripted: apiErrors.rateLimited(17), banner: 'Rate limited — try again in 17 s.' },
    { status: '401', scripted: apiErrors.invalidKey(), banner: 'The API key was refused. Check it in Settings.' },
  ];
  for (const { status, scripted, banner } of errorCases) {
    it(`shows a ${status} as a banner whose Retry continues the conversation`, async () => {
      const { page, errors, fake } = await chat.open(`chat-error-${status}`);
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
    const { page, errors, fake } = await chat.open('chat-error-400');
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
    const { page, errors, fake } = await chat.open('chat-error-offline');
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    await chat.app().services.vault().settings.update({ baseUrl: `http://127.0.0.1:${closed}` });
    await send(page, 'Hello');
    const alert = page.getByRole('alert').filter({ hasText: 'Strata cannot reach the model; your conversation is saved.' });
    await alert.waitFor();
    // The advice and the detail under it say "check your connection" once between them.
    expect((await alert.textContent())!.match(/connection/gi)).toHaveLength(1);
    await settled(page);
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(fake.requests).toHaveLength(0);
    await expectAccessible(page);

    await chat.app().services.vault().settings.update({ baseUrl: fake.url });
    fake.enqueue(text('Back online.'));
    await alert.getByRole('button', { name: 'Retry' }).click();
    await answers(page).getByText('Back online.').waitFor();
    await expect.poll(() => alert.count()).toBe(0);
    await settled(page);
    expect(sentMessages(fake).filter((m) => m.role === 'user')).toHaveLength(1);
    allAccepted(fake);
    expect(errors).toEqual([]);
  });
});
