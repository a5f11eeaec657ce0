import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';

const SLUG = '-work-site';

async function seedVault(root: string) {
  const memory = path.join(root, 'projects', SLUG, 'memory');
  await fs.mkdir(memory, { recursive: true });
  await fs.writeFile(path.join(root, 'CLAUDE.md'), '# My instructions\n\nAnswer briefly.\n');
  await fs.writeFile(
    path.join(memory, 'MEMORY.md'),
    '- [Prefers tabs](prefers-tabs.md) — indentation style\n- [Gone](gone.md) — this file was deleted\n',
  );
  await fs.writeFile(
    path.join(memory, 'prefers-tabs.md'),
    '---\nname: Prefers tabs\ndescription: The user indents with tabs, never spaces\ntype: user\n---\nUse tabs for indentation.\n',
  );
  await fs.writeFile(
    path.join(memory, 'deploy-friday.md'),
    '---\nname: No Friday deploys\ndescription: Deploys are frozen on Fridays\ntype: project\n---\nNever deploy on a Friday.\n\n**Why:** on-call is thin.\n',
  );
  // Repeated keys: frontmatter Claude Code cannot read either (a lone `[` it reads, quoting it).
  await fs.writeFile(path.join(memory, 'broken.md'), '---\nname: a\nname: b\n---\nbody\n');
  return memory;
}


describe.skipIf(!hasChromium)('the vault browser in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  async function open(name: string) {
    const appData = await tempDir();
    const memory = await seedVault(appData);
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, name);
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).waitFor();
    return { page, errors, memory };
  }

  it('lists files by scope with type and error badges, previews a memory, and is accessible', async () => {
    const { page, errors } = await open('vault-browse');
    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: /Prefers tabs/ }).waitFor();
    expect(await tree.getByRole('button', { name: /My instructions|CLAUDE/ }).count()).toBeGreaterThan(0);
    expect(await tree.getByRole('button', { name: /broken/ }).textContent()).toContain('error');
    await tree.getByRole('button', { name: /No Friday deploys/ }).click();
    await page.getByRole('heading', { name: 'No Friday deploys', level: 1 }).waitFor();
    await page.getByText('Never deploy on a Friday.').waitFor();
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  it('edits and saves a memory through the editor, and the file on disk changes', async () => {
    const { page, memory } = await open('vault-edit');
    await page.getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByLabel('Text of Prefers tabs');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nAlso in YAML files.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => fs.readFile(path.join(memory, 'prefers-tabs.md'), 'utf8')).toContain('Also in YAML files.');
  });

  it('shows an edit made by another editor in the open file by itself', async () => {
    const { page, memory } = await open('vault-external');
    await page.getByRole('button', { name: /No Friday deploys/ }).click();
    await page.getByText('Never deploy on a Friday.').waitFor();
    await fs.writeFile(
      path.join(memory, 'deploy-friday.md'),
      '---\nname: No Friday deploys\ndescription: Deploys are frozen on Fridays\ntype: project\n---\nNever deploy on a Friday or a holiday.\n',
    );
    await page.getByText('Never deploy on a Friday or a holiday.').waitFor({ timeout: 15_000 });
  });

  it('deletes a memory and brings it back with Undo', async () => {
    const { page, memory } = await open('vault-delete');
    await page.getByRole('button', { name: /No Friday deploys/ }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => fs.access(path.join(memory, 'deploy-friday.md')).then(() => true, () => false)).toBe(false);
    await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => fs.access(path.join(memory, 'deploy-friday.md')).then(() => true, () => false)).toBe(true);
  });

  it('finds a memory by search and opens it from the quick switcher', async () => {
    const { page } = await open('vault-search');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Search text').fill('friday');
    const result = page.locator('.results .result').first();
    await result.waitFor();
    expect(await result.locator('mark').first().textContent()).toMatch(/friday/i);
    await page.keyboard.press('Control+p');
    await page.getByRole('combobox', { name: 'Open a vault file' }).fill('tabs');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Prefers tabs', level: 1 }).waitFor();
  });

  it('is accessible in the dark theme too: the type badges keep their contrast on the dark sidebar', async () => {
    const { page, errors } = await open('vault-dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByRole('heading', { name: 'Prefers tabs', level: 1 }).waitFor();
    // The dark palette is in force: the body's background is the dark --bg (#16181d).
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 24, 29)');
    await expectAccessible(page);
    expect(errors).toEqual([]);
  });

  it('shows the MEMORY.md index with its broken pointer and the file left out, and fixes them', async () => {
    const { page, memory } = await open('vault-index');
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Commands' }).fill('health');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Vault health' }).waitFor();
    await page.getByRole('region', { name: 'Index lines that point at nothing' }).waitFor();
    await page.getByRole('button', { name: 'Open the index' }).first().click();
    await page.getByText('(missing)').waitFor();
    await page.getByRole('button', { name: 'Remove line' }).click();
    await page.locator('li', { hasText: 'deploy-friday.md' }).getByRole('button', { name: 'Add to index' }).click();
    await expect.poll(() => fs.readFile(path.join(memory, 'MEMORY.md'), 'utf8')).not.toContain('gone.md');
    await expect.poll(() => fs.readFile(path.join(memory, 'MEMORY.md'), 'utf8')).toContain('deploy-friday.md');
    await expectAccessible(page);
  });

  it("shows an opened project's own CLAUDE.md under Instructions by the project's name, and saves an edit into the project folder", async () => {
    const project = path.join(await tempDir(), 'shop');
    await fs.mkdir(path.join(project, '.claude', 'rules'), { recursive: true });
    await fs.writeFile(path.join(project, 'CLAUDE.md'), '# Shop\n\nPrices are in cents.\n');
    await fs.writeFile(path.join(project, '.claude', 'rules', 'tests.md'), 'Run the tests.\n');
    const { page } = await open('vault-project-instructions');
    // What the app's project:open handler does; the registry announces the new list itself.
    await app!.services.vault().projects.open(project);
    const instructions = page.getByRole('navigation', { name: 'Vault files' }).getByRole('region', { name: 'Instructions' });
    await instructions.getByRole('heading', { name: 'shop', level: 3 }).waitFor({ timeout: 15_000 });
    await instructions.getByRole('button', { name: /\.claude\/rules\/tests\.md/ }).waitFor();
    await instructions.getByRole('button', { name: /^CLAUDE\.md/ }).last().click();
    await page.getByText('Prices are in cents.').waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel(/^Text of/).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nTaxes are separate.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => fs.readFile(path.join(project, 'CLAUDE.md'), 'utf8')).toContain('Taxes are separate.');
    // The quick switcher finds the project's files by the project's name.
    await page.keyboard.press('Control+p');
    await page.getByRole('combobox', { name: 'Open a vault file' }).fill('shop/.claude');
    await page.getByText('shop/.claude/rules/tests.md', { exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('Run the tests.').waitFor();
  });
});
