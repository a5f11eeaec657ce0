import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';

const SLUG = '-work-site';
const DAY = 86_400_000;

const memory = (name: string, description: string, type: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n${body}\n`;

/** A project memory folder with a stale memory and two near-duplicates besides two ordinary memories. */
async function seedVault(root: string): Promise<string> {
  const dir = path.join(root, 'projects', SLUG, 'memory');
  await fs.mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    'prefers-tabs.md': memory('Prefers tabs', 'The user indents with tabs', 'user', 'Use tabs for indentation, even in deploy scripts.'),
    'deploy-friday.md': memory('No Friday deploys', 'Deploys are frozen on Fridays', 'project', `Never deploy on a Friday.\n\n${'On-call is thin. '.repeat(20)}`),
    'old-runbook.md': memory('Old runbook', 'Where the runbook lived', 'reference', 'The runbook is on the old wiki.'),
    'vpn-a.md': memory('VPN for staging', 'Staging needs the VPN', 'project', 'Connect to the VPN before using staging.'),
    'vpn-b.md': memory('Staging VPN', 'Staging needs the VPN!', 'project', 'Staging is only reachable over the VPN.'),
  };
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
  await fs.writeFile(
    path.join(dir, 'MEMORY.md'),
    `${Object.keys(files)
      .map((f) => `- [${f}](${f}) — seeded`)
      .join('\n')}\n`,
  );
  const old = new Date(Date.now() - 120 * DAY);
  await fs.utimes(path.join(dir, 'old-runbook.md'), old, old);
  return dir;
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);


describe.skipIf(!hasChromium)('managing memories in the vault browser', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  async function open(name: string): Promise<{ page: Page; errors: string[]; dir: string }> {
    const appData = await tempDir();
    const dir = await seedVault(appData);
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Prefers tabs/ }).waitFor();
    return { page, errors, dir };
  }

  const treeTitles = (page: Page) => page.getByRole('region', { name: 'Project memory' }).locator('.tree-title').allTextContents();

  it('creates a memory from the form (validated, indexed), then renames it and the index follows', async () => {
    const { page, errors, dir } = await open('vault-create');
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Commands' }).fill('new memory');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New memory' }).waitFor();
    const create = page.getByRole('button', { name: 'Create memory' });
    await page.getByLabel('Name', { exact: true }).fill('Release notes style');
    expect(await page.getByLabel('File name').inputValue()).toBe('release-notes-style.md');
    expect(await create.isDisabled()).toBe(true);
    await page.getByText('One specific line: what this memory is for.').waitFor();
    await page.getByLabel('Description').fill('How the team writes release notes');
    await page.getByLabel('Type').selectOption('feedback');
    await page.getByLabel('Text').fill('Short bullets, user-facing words.');
    await expectAccessible(page);
    await create.click();
    await page.getByRole('heading', { name: 'Release notes style', level: 1 }).waitFor();
    const created = await fs.readFile(path.join(dir, 'release-notes-style.md'), 'utf8');
    expect(created).toContain('type: feedback');
    expect(created).toContain('Short bullets, user-facing words.');
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('(release-notes-style.md) — How the team writes release notes');

    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByLabel('New file name').fill('release-notes.md');
    await page.getByLabel('New file name').press('Enter');
    await expect.poll(() => exists(path.join(dir, 'release-notes.md'))).toBe(true);
    expect(await exists(path.join(dir, 'release-notes-style.md'))).toBe(false);
    const index = () => fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8');
    await expect.poll(index).toContain('(release-notes.md)');
    expect(await index()).not.toContain('release-notes-style.md');
    expect(errors).toEqual([]);
  });

  it('keeps unsaved edits when the file changes on disk, shows both side by side, and saves the one chosen or merged', async () => {
    const { page, dir } = await open('vault-external-unsaved');
    const file = path.join(dir, 'prefers-tabs.md');
    const edit = async (line: string) => {
      await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Prefers tabs/ }).click();
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByLabel('Text of Prefers tabs').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(line);
    };
    const theirs = (line: string) => memory('Prefers tabs', 'The user indents with tabs', 'user', line);

    await edit('\nMINE ONE');
    await fs.writeFile(file, theirs('THEIRS ONE'));
    const banner = page.getByRole('alert').filter({ hasText: 'changed on disk while you were editing' });
    await banner.waitFor({ timeout: 15_000 });
    await banner.getByLabel('Their version').getByText('THEIRS ONE').waitFor();
    const mine = banner.getByLabel('My version (editable result)');
    expect(await mine.textContent()).toContain('MINE ONE');
    await mine.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' MERGED');
    await banner.getByRole('button', { name: 'Keep my version' }).click();
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('MINE ONE MERGED');
    expect(await fs.readFile(file, 'utf8')).not.toContain('THEIRS ONE');
    await banner.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await edit('\nMINE TWO');
    await fs.writeFile(file, theirs('THEIRS TWO'));
    await banner.waitFor({ timeout: 15_000 });
    await banner.getByRole('button', { name: 'Use the version on disk' }).click();
    await page.getByText('THEIRS TWO').waitFor();
    expect(await page.getByText('MINE TWO').count()).toBe(0);
    expect(await fs.readFile(file, 'utf8')).toContain('THEIRS TWO');
  });

  it('filters search results by memory type, sorts the tree, and moves through results and tree with the keyboard', async () => {
    const { page } = await open('vault-filter-sort');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Search text').fill('deploy');
    const titles = () => page.locator('.results .result-title').allTextContents();
    await expect.poll(async () => (await titles()).join('|')).toMatch(/No Friday deploys.*Prefers tabs|Prefers tabs.*No Friday deploys/);
    await page.getByLabel('Memory type').selectOption('project');
    await expect.poll(titles).toEqual([expect.stringContaining('No Friday deploys')]);
    await page.getByLabel('Memory type').selectOption('user');
    await expect.poll(titles).toEqual([expect.stringContaining('Prefers tabs')]);
    await page.getByLabel('Search text').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Prefers tabs', level: 1 }).waitFor();

    await page.getByLabel('Sort by').selectOption('size');
    await expect.poll(async () => (await treeTitles(page))[0]).toBe('No Friday deploys');
    await page.getByLabel('Sort by').selectOption('updated');
    await expect.poll(async () => (await treeTitles(page)).at(-1)).toBe('Old runbook');
    await page.getByLabel('Sort by').selectOption('name');
    const byName = await treeTitles(page);
    expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b)));

    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: new RegExp(byName[0]!) }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: byName[1], level: 1 }).waitFor();
  });

  it('restores an earlier version from the history, and undoes the restore from its notice', async () => {
    const { page, dir } = await open('vault-restore-undo');
    const file = path.join(dir, 'prefers-tabs.md');
    await page.getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Text of Prefers tabs').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nSECOND VERSION');
    await page.keyboard.press('Control+s');
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('SECOND VERSION');
    await page.getByRole('button', { name: 'History', exact: true }).click();
    await page.locator('.timeline button').first().click();
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect.poll(() => fs.readFile(file, 'utf8')).not.toContain('SECOND VERSION');
    const timeline = await app!.services.vault().files.timeline(`projects/${SLUG}/memory/prefers-tabs.md`);
    expect(timeline.map((v) => v.reason)).toEqual(['before-restore', 'autosave']);
    await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('SECOND VERSION');
    await page.getByText('SECOND VERSION').waitFor();
  });

  it('brings a deleted memory back from Recently deleted, with its index line', async () => {
    const { page, dir } = await open('vault-recently-deleted');
    await page.getByRole('button', { name: /Old runbook/ }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => exists(path.join(dir, 'old-runbook.md'))).toBe(false);
    await page.getByRole('button', { name: 'Recently deleted' }).click();
    await page.getByRole('button', { name: /^Restore old-runbook/ }).click();
    await page.getByRole('heading', { name: 'Old runbook', level: 1 }).waitFor();
    expect(await fs.readFile(path.join(dir, 'old-runbook.md'), 'utf8')).toContain('The runbook is on the old wiki.');
    await expect.poll(() => fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('(old-runbook.md)');
    await page.getByRole('button', { name: 'Recently deleted' }).click();
    await page.getByText('Nothing deleted is waiting here.').waitFor();
  });

  it('fixes health findings in one click: a stale memory marked still true, unindexed memories added all at once, a broken index line removed, a duplicate deleted and brought back', async () => {
    const { page, dir } = await open('vault-health-fix');
    await page.getByRole('button', { name: 'Health', exact: true }).click();
    await page.getByRole('heading', { name: 'Not updated in 90 days' }).waitFor();
    const before = await fs.readFile(path.join(dir, 'old-runbook.md'), 'utf8');
    await page.getByRole('button', { name: 'Still true' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Not updated in 90 days' }).count()).toBe(0);
    expect(await fs.readFile(path.join(dir, 'old-runbook.md'), 'utf8')).toBe(before);
    expect(Date.now() - (await fs.stat(path.join(dir, 'old-runbook.md'))).mtimeMs).toBeLessThan(60_000);

    // Written outside Strata: two memories the index does not list, and an index line pointing at nothing.
    await fs.writeFile(path.join(dir, 'ssh-keys.md'), memory('SSH keys', 'Where the deploy keys live', 'reference', 'In the team vault.'));
    await fs.writeFile(path.join(dir, 'lint-rules.md'), memory('Lint rules', 'The lint rules we keep', 'feedback', 'No default exports.'));
    await fs.appendFile(path.join(dir, 'MEMORY.md'), '- [Gone](gone.md) — removed long ago\n');
    const missing = page.getByRole('region', { name: 'Memories missing from their index' });
    await missing.getByRole('button', { name: 'Fix all 2' }).click();
    const listed = async () => {
      const index = await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8');
      return [index.includes('(ssh-keys.md)'), index.includes('(lint-rules.md)')];
    };
    await expect.poll(listed).toEqual([true, true]);
    await expect.poll(() => missing.count()).toBe(0);
    await page.getByRole('region', { name: 'Index lines that point at nothing' }).getByRole('button', { name: /^Remove the line/ }).click();
    await expect.poll(() => fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).not.toContain('(gone.md)');
    await expect.poll(() => page.getByRole('region', { name: 'Index lines that point at nothing' }).count()).toBe(0);

    await page.getByRole('heading', { name: 'Near-duplicates' }).waitFor();
    await page.getByRole('button', { name: 'Delete vpn-b.md' }).click();
    await expect.poll(() => exists(path.join(dir, 'vpn-b.md'))).toBe(false);
    await expect.poll(() => page.getByRole('heading', { name: 'Near-duplicates' }).count()).toBe(0);
    await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => exists(path.join(dir, 'vpn-b.md'))).toBe(true);
    await expect.poll(() => fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('(vpn-b.md)');
  });
});
