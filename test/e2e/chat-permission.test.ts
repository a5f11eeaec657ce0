import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { text, toolCalls } from '../fakes/anthropic-server/index.js';
import { expectAccessible, hasChromium, openPage } from './support/browser.js';
import { useChatApp } from './support/chat-fixture.js';
import { allAccepted, answers, send, sentMessages, settled } from './support/chat-page.js';

const exists = (file: string) => fs.access(file).then(() => true, () => false);

/**
 * The permission dialog of the chat in Chromium via `strata host` and the strict fake Messages API: a
 * write outside the memory folders waits for the user, who sees what changes and answers once, always
 * or no; the answer holds in every tab.
 */
describe.skipIf(!hasChromium)('the permission dialog of the chat in Chromium via strata host', () => {
  const chat = useChatApp('strata-e2e-chat-');

  it('asks before creating a file with its name and content, keeps the keyboard in the dialog; Create once writes it', async () => {
    const { page, errors, project, fake } = await chat.open('chat-permission');
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
    // Modal: the keyboard never reaches Stop or the composer behind it, past the last control either way.
    const stops = await dialog.locator('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])').count();
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < stops + 2; i++) {
        await page.keyboard.press(key);
        expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      }
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
    const { page, errors, project, fake } = await chat.open('chat-permission-edit');
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
    const { page, project, fake } = await chat.open('chat-permission-two-tabs');
    const other = await openPage(chat.browser(), chat.app().host.url, 'chat-permission-other-tab');
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
    const { page, project, fake } = await chat.open('chat-deny');
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
});
