import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic, type ScriptedResponse, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { themedScreenshots } from './support/screenshots.js';


const exists = (file: string) => fs.access(file).then(() => true, () => false);
const read = (file: string) => fs.readFile(file, 'utf8').catch(() => '');

const lastUserText = (r: WireRequest): string => {
  const last = r.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};

const memory = (name: string, description: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n${body}\n`;

/**
 * docs/memory.md#auto-memory in Chromium via `strata host`, the real engines and the strict fake Messages API: the memory
 * card of a foreground save and its Undo, and review mode's inbox in the vault.
 */
describe.skipIf(!hasChromium)('auto memory in Chromium via strata host and the fake Messages API', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  async function open(name: string, respond?: (r: WireRequest) => ScriptedResponse) {
    fake = await startFakeAnthropic({ strict: true, ...(respond ? { respond } : {}) });
    const project = path.join(await tempDir('strata-e2e-memory-'), 'site');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const memoryDir = await memoryDirOf(app.services, project);
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
    await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
    return { page, errors, project, memoryDir, fake, app };
  }

  async function send(page: Page, prompt: string) {
    await page.getByLabel('Message', { exact: true }).fill(prompt);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
  }

  const allAccepted = (f: FakeAnthropic) => expect(f.requests.map((r) => r.rejected)).toEqual(f.requests.map(() => null));

  it('"remember that I prefer tabs": a card appears, the file and its index line exist, and Undo removes both', async () => {
    const { page, errors, memoryDir, fake } = await open('memory-tabs');
    const file = path.join(memoryDir, 'feedback_tabs.md');
    const index = path.join(memoryDir, 'MEMORY.md');
    fake.enqueue(
      toolCalls([
        { name: 'Write', input: { file_path: file, content: memory('Prefers tabs', 'Indent with tabs, never spaces', 'feedback', 'Indent with tabs.') } },
        { name: 'Write', input: { file_path: index, content: '- [Prefers tabs](feedback_tabs.md) — indent with tabs, never spaces\n' } },
      ]),
      text('Got it: tabs from now on.'),
    );
    await send(page, 'Remember that I prefer tabs');
    const card = page.getByRole('group', { name: 'Remembered: Prefers tabs' });
    await card.waitFor();
    await page.getByText('Got it: tabs from now on.').waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await read(file)).toContain('Indent with tabs.');
    expect(await read(index)).toBe('- [Prefers tabs](feedback_tabs.md) — indent with tabs, never spaces\n');
    await expect.poll(() => card.getByText('feedback', { exact: true }).count()).toBe(1);

    await card.getByRole('button', { name: 'Undo' }).click();
    await card.getByText('Undone').waitFor();
    await expect.poll(() => exists(file)).toBe(false);
    await expect.poll(() => read(index)).not.toContain('feedback_tabs.md');
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('"forget" deletes the file and its index line with a card whose Undo brings the file back; a recall chip says why and opens the file', async () => {
    const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
    let tabs = '';
    let index = '';
    // The selector is answered first in a turn, so every answer comes from the responder, not the queue.
    const { page, errors, memoryDir, fake } = await open('memory-forget', (r) => {
      if (isSelector(r)) return text('{"selected_memories": ["project_deploy.md"]}');
      if (JSON.stringify(r.messages).split('"tool_use"').length > 2) return text('Forgotten.');
      if (!JSON.stringify(r.messages).includes('tool_use')) return toolCalls([{ name: 'Read', input: { file_path: index } }]);
      return toolCalls([
        { name: 'Delete', input: { file_path: tabs } },
        { name: 'Edit', input: { file_path: index, old_string: '- [Prefers tabs](feedback_tabs.md) — tabs\n', new_string: '' } },
      ]);
    });
    const deploy = path.join(memoryDir, 'project_deploy.md');
    tabs = path.join(memoryDir, 'feedback_tabs.md');
    index = path.join(memoryDir, 'MEMORY.md');
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(deploy, memory('Deploy day', 'Deployments happen on Thursdays after the review', 'project', 'We deploy on Thursdays.'));
    await fs.writeFile(tabs, memory('Prefers tabs', 'Indent with tabs', 'feedback', 'Use tabs.'));
    await fs.writeFile(index, '- [Deploy day](project_deploy.md) — Thursdays\n- [Prefers tabs](feedback_tabs.md) — tabs\n');

    await send(page, 'Forget that I prefer tabs, and which day do we deploy?');
    const card = page.getByRole('group', { name: 'Forgot: Prefers tabs' });
    await card.waitFor();
    await page.getByText('Forgotten.').waitFor();
    expect(await exists(tabs)).toBe(false);
    expect(await read(index)).not.toContain('feedback_tabs.md');
    await card.getByRole('button', { name: 'Undo' }).click();
    await card.getByText('Undone').waitFor();
    await expect.poll(() => exists(tabs)).toBe(true);
    // The index line the agent removed is not restored by Undo yet: see test/main/core/chat/memory-undo.test.ts.

    const chips = page.getByLabel('Memories used');
    await chips.getByRole('button', { name: 'Deploy day' }).click();
    const why = page.getByRole('region', { name: 'Why “Deploy day”' });
    expect(await why.textContent()).toContain('picked by the model');
    await themedScreenshots(page, 'chat-recall-why');
    await why.getByRole('button', { name: 'Open memory' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).getAttribute('aria-current')).toBe('page');
    await page.getByText('We deploy on Thursdays.').first().waitFor();
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('"Why do you know this?" on an answer lists the memories recall attached for it, each opening its file', async () => {
    const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
    const { page, errors, memoryDir, fake } = await open('memory-why', (r) =>
      isSelector(r) ? text('{"selected_memories": ["project_deploy.md"]}') : text('We deploy on Thursdays, after the review.'),
    );
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), memory('Deploy day', 'Deployments happen on Thursdays after the review', 'project', 'We deploy on Thursdays.'));
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Deploy day](project_deploy.md) — Thursdays\n');

    await send(page, 'Which day do we deploy?');
    const answer = page.locator('.message-block.assistant', { hasText: 'We deploy on Thursdays, after the review.' });
    await answer.waitFor();
    const why = answer.getByRole('button', { name: 'Why do you know this?' });
    await answer.hover();
    await why.click();
    expect(await why.getAttribute('aria-expanded')).toBe('true');
    const behind = page.getByRole('region', { name: 'Memories behind this answer' });
    const item = behind.getByRole('listitem');
    expect(await item.count()).toBe(1);
    expect(await item.getByRole('button').textContent()).toBe('Deploy day');
    expect(await item.locator('.recall-reason').textContent()).toMatch(/^picked by the model · #1 in the local ranking · has “day”, “deploy”/);
    expect(await item.textContent()).toContain('saved today');
    await expectAccessible(page);
    await themedScreenshots(page, 'chat-why-do-you-know');
    await behind.getByRole('button', { name: 'Deploy day' }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).getAttribute('aria-current')).toBe('page');
    await page.getByText('We deploy on Thursdays.').first().waitFor();
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('shows a card for an extractor write over an existing memory it read first', async () => {
    let memoryDir = '';
    const updated = memory('Role', 'The user is a product designer', 'user', 'Product designer on the checkout team.');
    const { page, errors, project, fake, app: started } = await open('memory-extractor-update', (r) => {
      const all = JSON.stringify(r.messages);
      if (!all.includes('You are the memory extractor')) return text('Noted.');
      // As the real model does it: a Write over a file it has not read is refused (docs/claude-code-parity.md).
      const role = path.join(memoryDir, 'user_role.md');
      if (!all.includes('"name":"Read"')) return toolCalls([{ name: 'Read', input: { file_path: role } }]);
      if (!all.includes('"name":"Write"')) return toolCalls([{ name: 'Write', input: { file_path: role, content: updated } }]);
      return text('Done.');
    });
    memoryDir = await memoryDirOf(started.services, project);
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'user_role.md'), memory('Role', 'The user is a designer', 'user', 'Designer.'));
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Role](user_role.md) — the user is a designer\n');
    const vault = started.services.vault();
    const settings = vault.settings.get();
    await vault.settings.update({ projects: { ...settings.projects, [project]: { ...settings.projects[project]!, extraction: true } } });

    await send(page, 'I moved to the checkout team as a product designer.');
    const card = page.getByRole('group', { name: 'Updated memory: Role' });
    await card.waitFor();
    await card.getByText('noticed in the background').waitFor();
    await expect.poll(() => read(path.join(memoryDir, 'user_role.md'))).toContain('Product designer on the checkout team.');
    allAccepted(fake);
    expect(errors).toEqual([]);
  });

  it('holds the extractor’s proposals in the vault’s review inbox, where they are accepted, edited or rejected', async () => {
    let memoryDir = '';
    const proposals = [
      ['feedback_tabs.md', memory('Prefers tabs', 'Indent with tabs', 'feedback', 'Use tabs.')],
      ['user_role.md', memory('Role', 'The user is a designer', 'user', 'Designer.')],
      ['project_freeze.md', memory('Code freeze', 'Freeze starts on 2026-03-05', 'project', 'Freeze on 2026-03-05.')],
    ] as const;
    const { page, errors, project, fake, app: started } = await open('memory-review', (r) => {
      const last = lastUserText(r);
      if (last.includes('You are the memory extractor')) return toolCalls(proposals.map(([name, content]) => ({ name: 'Write', input: { file_path: path.join(memoryDir, name), content } })));
      if (last.includes('tool_result')) return text('Done.');
      return text('Noted.');
    });
    memoryDir = await memoryDirOf(started.services, project);
    const vault = started.services.vault();
    const settings = vault.settings.get();
    await vault.settings.update({ projects: { ...settings.projects, [project]: { ...settings.projects[project]!, extraction: true, reviewMode: true } } });

    await send(page, 'I indent with tabs, I am a designer, and the freeze starts on March 5th.');
    await page.getByRole('group', { name: 'Proposed memory: Code freeze' }).waitFor();
    for (const [name] of proposals) expect(await exists(path.join(memoryDir, name))).toBe(false);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('button', { name: 'Inbox (3)' }).click();
    const inbox = page.getByRole('region', { name: 'Review inbox' });
    await inbox.getByRole('article', { name: 'Remember: Prefers tabs' }).waitFor();
    await expectAccessible(page);

    await inbox.getByRole('article', { name: 'Remember: Prefers tabs' }).getByRole('button', { name: 'Accept' }).click();
    await inbox.getByRole('article', { name: 'Remember: Prefers tabs' }).waitFor({ state: 'detached' });
    await expect.poll(() => read(path.join(memoryDir, 'feedback_tabs.md'))).toContain('Use tabs.');

    const role = inbox.getByRole('article', { name: 'Remember: Role' });
    await role.getByRole('button', { name: 'Edit' }).click();
    const editor = role.getByLabel('Memory text');
    await editor.fill((await editor.inputValue()).replace('Designer.', 'Product designer on the checkout team.'));
    await role.getByRole('button', { name: 'Save and accept' }).click();
    await role.waitFor({ state: 'detached' });
    await expect.poll(() => read(path.join(memoryDir, 'user_role.md'))).toContain('Product designer on the checkout team.');

    await inbox.getByRole('article', { name: 'Remember: Code freeze' }).getByRole('button', { name: 'Reject' }).click();
    await inbox.getByText('No memory from your conversations is waiting.').waitFor();
    expect(await exists(path.join(memoryDir, 'project_freeze.md'))).toBe(false);
    // Accepted memories get their index line; the rejected one does not.
    const index = await read(path.join(memoryDir, 'MEMORY.md'));
    expect(index).toContain('(feedback_tabs.md)');
    expect(index).toContain('(user_role.md)');
    expect(index).not.toContain('project_freeze.md');
    allAccepted(fake);
    expect(errors).toEqual([]);
  });
});
