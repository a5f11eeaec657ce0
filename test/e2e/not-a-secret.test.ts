import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../fakes/anthropic-server/index.js';
import { githubToken, SeededRandom } from '../fixtures/secrets/seeded-random.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';


const read = (file: string) => fs.readFile(file, 'utf8').catch(() => '');

/**
 * "Not a secret" in Chromium via `strata host`, the real engines and the strict fake Messages API: the
 * agent's memory write is refused (twice, the same value), the user marks the finding on one row and both
 * show it marked, Save it now makes the refused write from main, and Settings lists the allowance and
 * revokes it. The value is never on the page or in a file it was refused from.
 */
describe.skipIf(!hasChromium)('"Not a secret" in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  async function send(page: Page, prompt: string) {
    await page.getByLabel('Message', { exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  it('refused write → Not a secret on one row marks both → Save it now writes it → listed and revoked in Settings', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const project = path.join(await tempDir('strata-e2e-allow-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    const { page, errors } = await openPage(browser(), app.host.url, 'not-a-secret');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();

    const value = githubToken(new SeededRandom(77), 'ghp');
    const file = path.join(memoryDir, 'reference_training.md');
    const content = `---\nname: Training token\ndescription: The revoked token used in the security exercise\ntype: reference\n---\nThe exercise's leaked token: ${value}\n`;
    // The model tries twice with the same value: two refused rows of one finding.
    const other = path.join(memoryDir, 'reference_security_exercise.md');
    fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: file, content } }]),
      toolCalls([{ name: 'Write', input: { file_path: other, content } }]),
      text('I could not save that: the scanner found a token.'),
    );
    await send(page, 'Remember the token from the security training');
    await page.getByText('I could not save that: the scanner found a token.').waitFor();
    // The refused call is shown and kept without the value (docs/security.md#secrets-scanning).
    await page.getByRole('button', { name: /reference_training\.md/ }).click();
    await page.locator('.tool-body').getByRole('button', { name: 'Show raw' }).click();
    const input = page.getByLabel('Write input');
    await expect.poll(() => input.innerText()).toContain('[secret-removed]');
    expect(await page.locator('body').innerText()).not.toContain(value.slice(4));
    await page.getByRole('button', { name: /reference_training\.md/ }).click();
    const rows = page.getByRole('group', { name: 'Secrets found in this memory' });
    await expect.poll(() => rows.getByRole('button', { name: 'Not a secret' }).count()).toBe(2);
    // The kind of secret in words, never the scanner rule's id.
    await rows.first().getByText('The memory was not saved: it holds what looks like a GitHub personal access token.').waitFor();
    await rows.first().getByRole('button', { name: 'Not a secret' }).click();
    // Both rows of the value are marked (no stale link left), for this value only, and each offers Save it now.
    await expect.poll(() => rows.getByText(/Marked a GitHub personal access token as not a secret: this value only/).count()).toBe(2);
    expect(await rows.first().innerText()).not.toContain('github-pat');
    expect(await rows.getByRole('button', { name: 'Not a secret' }).count()).toBe(0);
    expect(await read(file)).toBe('');
    await themedScreenshots(page, 'chat-not-a-secret-save');

    // Save it now: main makes the refused write itself, with no model call, and its card follows.
    const requests = fake.requests.length;
    await rows.first().getByRole('button', { name: 'Save it now' }).click();
    await rows.first().getByText('Saved. The memory is below, with Undo.').waitFor();
    expect(await page.getByRole('button', { name: /reference_training\.md/ }).innerText()).toMatch(/Saved$/);
    await page.getByRole('log', { name: 'Conversation' }).getByRole('group', { name: 'Remembered: Training token' }).waitFor();
    // The agent's memory is stamped with the conversation that wrote it (originSessionId).
    await expect.poll(async () => (await read(file)).replace(/^originSessionId: .*\n/m, '')).toBe(content);
    expect(await read(other)).toBe('');
    expect(fake.requests.length).toBe(requests);
    await rows.first().scrollIntoViewIfNeeded();
    await themedScreenshots(page, 'chat-not-a-secret-saved');

    // The saved memory's name comes from the vault's catalog: let the watcher see the file first.
    await app.services.vault().files.idle();
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    const list = page.getByRole('list', { name: 'Findings marked not a secret' });
    // Named by the memory and its project; the vault path is only the tooltip.
    const place = list.getByText('“Training token” in site', { exact: true });
    await place.waitFor();
    expect(await place.getAttribute('title')).toBe(file);
    expect(await list.innerText()).not.toContain(memoryDir);
    expect(await page.locator('body').innerText()).not.toContain(value.slice(4));
    // Listed by the kind of secret in words, never the scanner rule's id.
    await list.getByText(/^A GitHub personal access token — “Training token” in site \(from a memory write, /).waitFor();
    expect(await list.innerText()).not.toContain('github-pat');
    await list.scrollIntoViewIfNeeded();
    await themedScreenshots(page, 'settings-not-a-secret');
    await list.getByRole('button', { name: 'Revoke a GitHub personal access token in “Training token” in site' }).click();
    await page.getByText('None yet.').waitFor();

    const stored = await read(path.join(app.services.vault().root, '.strata', 'secret-allowances.json'));
    expect(stored).not.toContain(value.slice(4, 20));
    expect(fake.requests.map((r) => r.rejected)).toEqual(fake.requests.map(() => null));
    expect(errors).toEqual([]);
  });
});
