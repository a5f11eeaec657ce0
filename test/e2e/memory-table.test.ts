import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryUsageStore } from '../../main/core/auto-memory/memory-usage.js';
import { closeAfterEach, type TestApp } from './support/app.js';
import { startAppWithMemory } from './support/memory-project.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';

const memory = (name: string, description: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`;
const SESSION = '5d2c9a8e-3f41-4b6e-9c0d-7a1b2c3d4e5f';
const seeded: Record<string, string> = {
  'user_role.md': memory('Role', 'The user is a product designer', 'user', 'Product designer at Figma.').replace('type: user\n', `type: user\noriginSessionId: ${SESSION}\n`),
  'feedback_tone.md': memory('Tone', 'Plain words, no emojis', 'feedback', 'Write plainly. '.repeat(40)),
  'project_deadline.md': memory('Deadline', 'The launch is on 2026-12-11', 'project', 'Launch on 2026-12-11.').replace('type: project\n', 'type: project\nvalidUntil: 2020-01-31\n'),
  'reference_board.md': memory('Board', 'The planning board lives in Linear', 'reference', 'https://linear.example.com/board\n\nImported from ChatGPT on 2026-11-02.'),
};

const exists = (file: string) => fs.access(file).then(() => true, () => false);


describe.skipIf(!hasChromium)('the memory table', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('lists, sorts and filters memories with their use, dates and origin; moves two to team memory and back, deletes one and retires one, each with Undo', async () => {
    const started = await startAppWithMemory('studio');
    app = started.app;
    const { project, dir } = started;
    const vault = app.services.vault();
    for (const [name, text] of Object.entries(seeded)) await fs.writeFile(path.join(dir, name), text);
    await fs.writeFile(path.join(dir, 'MEMORY.md'), Object.keys(seeded).map((f) => `- [${f}](${f}) — seeded`).join('\n') + '\n');
    // The conversation that wrote Role, and recall's count of uses, as the chat leaves them.
    const transcripts = (await vault.sessions.paths(project)).transcriptsDir;
    await fs.mkdir(transcripts, { recursive: true });
    const question = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: SESSION, timestamp: '2026-12-01T09:00:00.000Z', cwd: project, message: { role: 'user', content: 'I design the checkout, remember that' } };
    await fs.writeFile(path.join(transcripts, `${SESSION}.jsonl`), `${JSON.stringify(question)}\n`);
    const usage = MemoryUsageStore.forVault(vault.root, { now: () => Date.now() });
    await usage.record([path.join(dir, 'user_role.md'), path.join(dir, 'feedback_tone.md')], SESSION);
    await usage.record([path.join(dir, 'user_role.md')], SESSION);

    const { page, errors } = await openPage(browser(), app.host.url, 'memory-table');
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'studio', exact: true }).click();
    // The project opens its conversation and focuses its composer: wait, so the palette opened next keeps the keyboard.
    await page.getByRole('heading', { name: 'I design the checkout, remember that', level: 1 }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Commands' }).fill('memory table');
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: 'Memories' });
    await table.getByRole('button', { name: 'Deadline' }).waitFor();
    // Every column, as a user who wants them all chooses them (the choice is kept: memory-table-scale.test.ts).
    await page.getByText('Columns', { exact: true }).click();
    for (const c of ['Scope', 'Valid until', 'Last changed', 'Tokens', 'Origin']) await page.getByRole('checkbox', { name: c, exact: true }).check();
    await page.keyboard.press('Escape');
    const body = table.locator('.table-body');
    const names = () => body.locator('[role="row"] .memory-name [data-control="open"]').allTextContents();
    expect(await names()).toEqual(['Board', 'Deadline', 'Role', 'Tone']);
    await table.getByRole('button', { name: 'Tokens' }).click();
    await table.getByRole('button', { name: 'Tokens' }).click();
    expect((await names())[0]).toBe('Tone');
    const row = (name: string) => body.locator('[role="row"]', { has: page.getByRole('button', { name, exact: true }) });
    // Cells: tick, memory (name over description), type, scope, last used, times used, valid until, last changed, tokens, origin.
    const cells = (name: string) => row(name).getByRole('cell');
    await expect.poll(() => cells('Role').allTextContents()).toEqual(['', 'RoleThe user is a product designer', 'user', 'project', 'today', '2', '', expect.any(String), expect.any(String), '“I design the checkout, remember that”']);
    expect(await cells('Deadline').nth(6).textContent()).toBe('Jan 31, 2020 expired');
    expect(await cells('Board').last().textContent()).toBe('Imported from ChatGPT');
    expect(await cells('Board').nth(4).textContent()).toBe('never');
    await table.getByRole('button', { name: 'Times used' }).click();
    await table.getByRole('button', { name: 'Times used' }).click();
    expect(await names()).toEqual(['Role', 'Tone', 'Board', 'Deadline']);
    await page.locator('.table-scroll').evaluate((e) => e.scrollTo(0, 0));
    await expectAccessible(page);

    // The memory's details: how often and where it was used, where it came from.
    await row('Role').getByRole('button', { name: 'Role', exact: true }).click();
    const pane = page.getByRole('region', { name: 'Role' });
    await pane.getByText('Used 2 times, last today — in').waitFor();
    await pane.getByText('Written in conversation').waitFor();
    await expectAccessible(page);
    await themedScreenshots(page, 'memory-used-by');
    await pane.getByText('Used 2 times').getByRole('button', { name: '“I design the checkout, remember that”' }).click();
    // The conversation's own heading: the link's text is also in the table, so waiting for the text alone
    // could return before the chat opened (and the chat then replaced the table reopened below).
    await page.getByRole('heading', { name: 'I design the checkout, remember that' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Commands' }).fill('memory table');
    await page.keyboard.press('Enter');
    await table.getByRole('button', { name: 'Deadline' }).waitFor();

    await page.getByRole('combobox', { name: 'Type' }).selectOption('user');
    expect(await names()).toEqual(['Role']);
    await page.getByRole('combobox', { name: 'Type' }).selectOption('');
    await page.getByLabel('Filter by words').fill('launch');
    await expect.poll(names).toEqual(['Deadline']);
    await page.getByLabel('Filter by words').fill('');
    await expect.poll(names).toHaveLength(4);

    await page.getByLabel('Select Role').check();
    await page.getByLabel('Select Board').check();
    await page.getByRole('button', { name: 'Move to team memory' }).click();
    await page.getByText('Moved 2 memories to team memory.').waitFor();
    expect(await exists(path.join(dir, 'team', 'user_role.md'))).toBe(true);
    expect(await exists(path.join(dir, 'user_role.md'))).toBe(false);
    expect(await fs.readFile(path.join(dir, 'team', 'reference_board.md'), 'utf8')).toBe(seeded['reference_board.md']);
    expect(await fs.readFile(path.join(dir, 'team', 'MEMORY.md'), 'utf8')).toContain('(user_role.md)');
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).not.toContain('(user_role.md)');
    // Its use count went along (docs/memory.md#provenance-and-use): the row still says used twice.
    const useOf = async (file: string) => (await usage.all()).files[path.relative(vault.root, file).split(path.sep).join('/')]?.count;
    await expect.poll(() => useOf(path.join(dir, 'team', 'user_role.md'))).toBe(2);
    expect(await useOf(path.join(dir, 'user_role.md'))).toBeUndefined();
    await expect.poll(() => cells('Role').nth(5).textContent()).toBe('2');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => exists(path.join(dir, 'user_role.md'))).toBe(true);
    await expect.poll(() => exists(path.join(dir, 'team', 'user_role.md'))).toBe(false);
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('(user_role.md)');
    await expect.poll(() => useOf(path.join(dir, 'user_role.md'))).toBe(2);
    expect(await useOf(path.join(dir, 'team', 'user_role.md'))).toBeUndefined();

    await table.getByRole('button', { name: 'Tone' }).waitFor();
    await page.getByLabel('Select Tone').check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Deleted 1 memory.').waitFor();
    expect(await exists(path.join(dir, 'feedback_tone.md'))).toBe(false);
    expect(await useOf(path.join(dir, 'feedback_tone.md'))).toBeUndefined();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => fs.readFile(path.join(dir, 'feedback_tone.md'), 'utf8').catch(() => null)).toBe(seeded['feedback_tone.md']);
    await expect.poll(() => useOf(path.join(dir, 'feedback_tone.md'))).toBe(1);

    // Retire: kept, but dated yesterday, so it shows expired; Undo puts the text back.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await table.getByRole('button', { name: 'Tone' }).waitFor();
    await page.getByLabel('Select Tone').check();
    await page.getByRole('button', { name: 'Retire', exact: true }).click();
    await page.getByText('Retired 1 memory: no longer recalled as true.').waitFor();
    expect(await fs.readFile(path.join(dir, 'feedback_tone.md'), 'utf8')).toBe(seeded['feedback_tone.md']!.replace('type: feedback\n', `type: feedback\nvalidUntil: ${yesterday}\n`));
    const shownDay = new Date(`${yesterday}T00:00`).toLocaleDateString('en-US', { dateStyle: 'medium' });
    await expect.poll(() => cells('Tone').nth(6).textContent()).toBe(`${shownDay} expired`);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => fs.readFile(path.join(dir, 'feedback_tone.md'), 'utf8')).toBe(seeded['feedback_tone.md']);

    // The table as it opens for most: the default columns, the name over its description, marks for the rest.
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('button', { name: 'Default columns' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => cells('Deadline').allTextContents()).toEqual(['', 'DeadlineexpiredThe launch is on 2026-12-11', 'project', 'never', '0']);
    await expectAccessible(page);
    await themedScreenshots(page, 'memory-table');
    expect(errors).toEqual([]);
  });
});
