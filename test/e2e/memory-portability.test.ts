import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { readZip, writeZip } from '../../main/core/portability/zip.js';
import { SecretAllowanceStore } from '../../main/core/secrets/index.js';
import { ALNUM, githubToken, SeededRandom } from '../fixtures/secrets/seeded-random.js';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';

const pasted = `Here's everything I have stored in memory about you:

1. [2024-05-12] - Is a product designer at Figma, working on the prototyping team.
2. [2024-08-03] - Prefers concise answers with code examples.
3. [unknown date] - Has a dog named Biscuit.
4. [2025-01-20] - Is building a budgeting app called Penny.

Let me know if you'd like me to update or forget any of these.`;

/** docs/screenshots/ of the import preview, scrolled to its heading: two window sizes, light and dark. */
async function screenshots(page: Page, name: string, top: string): Promise<void> {
  await page.evaluate((heading) => {
    (document.activeElement as HTMLElement | null)?.blur();
    Array.from(document.querySelectorAll('h2')).find((h) => h.textContent?.startsWith(heading))?.scrollIntoView({ block: 'start' });
  }, top);
  await themedScreenshots(page, name);
}


describe.skipIf(!hasChromium)('importing and exporting memory', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  /** The app on a fresh vault with the project "penny" open, and the import panel opened from the palette. */
  async function openImportPanel(pageName: string) {
    const home = await tempDir('strata-e2e-port-');
    const project = path.join(home, 'penny');
    await fs.mkdir(project);
    const root = await tempDir();
    app = await startApp(root, home);
    const vault = app.services.vault();
    await vault.ready;
    await vault.projects.open(project);
    const memoryDir = (await vault.sessions.paths(project)).memoryDir;
    const { page, errors } = await openPage(browser(), app.host.url, pageName);
    await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'penny', exact: true }).click();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Commands' }).fill('import memory');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Import and export memory' }).waitFor();
    return { home, root, memoryDir, page, errors };
  }

  it('previews a pasted ChatGPT answer, writes the kept and edited items, and exports a zip of the same files', async () => {
    const { memoryDir, page, errors } = await openImportPanel('memory-import');
    await page.getByLabel('Answer from', { exact: true }).selectOption('chatgpt');
    await page.getByLabel('Pasted answer').fill(pasted);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview: 4 of 4 to import from ChatGPT' }).waitFor();

    const dog = page.getByRole('listitem', { name: 'Has a dog named Biscuit' });
    await dog.getByLabel('Keep').uncheck();
    const designer = page.getByRole('listitem', { name: 'A product designer at Figma' });
    await designer.getByLabel('Name').fill('Job');
    await page.getByRole('heading', { name: 'Preview: 3 of 4 to import from ChatGPT' }).waitFor();
    await page.getByText('2 parts were not turned into memories').waitFor();
    await expectAccessible(page);
    await screenshots(page, 'memory-import-preview', 'Preview:');

    await page.getByRole('button', { name: 'Write 3 memories to penny' }).click();
    await page.getByRole('status').filter({ hasText: 'Written (3)' }).waitFor();
    const names = (await fs.readdir(memoryDir)).sort();
    expect(names).toEqual(['MEMORY.md', 'feedback_prefers_concise_answers_with_code_examples.md', 'project_building_a_budgeting_app_called_penny.md', 'user_a_product_designer_at_figma.md']);
    const job = await fs.readFile(path.join(memoryDir, 'user_a_product_designer_at_figma.md'), 'utf8');
    expect(job).toMatch(/^---\nname: Job\n/);
    expect(job).toContain('Imported from ChatGPT on ');
    expect(job).toContain('(saved there on 2024-05-12)');
    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('[Job](user_a_product_designer_at_figma.md)');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download a zip of markdown files' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^strata-memory-penny-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = readZip(await fs.readFile((await download.path())!));
    for (const name of names) {
      const entry = entries.find((e) => e.name === `penny/memory/${name}`);
      expect(entry?.data.toString('utf8'), name).toBe(await fs.readFile(path.join(memoryDir, name), 'utf8'));
    }
    // The document for another assistant names the project as the user knows it, and promises no dates.
    const [doc] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download one markdown document' }).click()]);
    expect(doc.suggestedFilename()).toMatch(/^strata-memory-penny-\d{4}-\d{2}-\d{2}\.md$/);
    const markdown = await fs.readFile((await doc.path())!, 'utf8');
    expect(markdown).toContain('\n## Project: penny\n');
    expect(markdown).not.toMatch(/tmp|each item says when/);
    expect(errors).toEqual([]);
  });

  it('previews one memory per dated line of the answer Strata asks for, each with its date, and keeps the pasted text', async () => {
    const { page, errors } = await openImportPanel('memory-import-dated-lines');
    const answer = '[2024-05-12] - Works as a nurse in Porto\n[2024-08-03] - Is preparing for a marathon in October\n[2024-09-01] - Has a dog named Biscuit';
    const box = page.getByLabel('Pasted answer');
    await box.click();
    await page.keyboard.insertText(answer);
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: 'Preview: 3 of 3 to import from ChatGPT' }).waitFor();
    for (const [name, date] of [['Works as a nurse in Porto', '2024-05-12'], ['Preparing for a marathon in October', '2024-08-03'], ['Has a dog named Biscuit', '2024-09-01']]) {
      const body = await page.getByRole('listitem', { name }).getByLabel('Text', { exact: true }).inputValue();
      expect(body, name).toContain(`(saved there on ${date})`);
    }
    expect(await box.inputValue()).toBe(answer);
    await screenshots(page, 'memory-import-dated-lines', 'Preview:');
    // Away to the memory table and back: the pasted answer is still in its box.
    await page.getByRole('button', { name: 'Memory table' }).click();
    await page.getByRole('button', { name: 'Import and export…' }).click();
    expect(await page.getByLabel('Pasted answer').inputValue()).toBe(answer);
    expect(errors).toEqual([]);
  });

  it('picks a zip of notes in the chooser, lists each written memory by name with a link, and undoes the whole import', async () => {
    const notes = [
      ['notes/trip.md', '# Trip to Kyoto\n\nFlights booked for April; the ryokan is near Gion.\n'],
      ['notes/reading.md', '# Reading list\n\nFinish The Dispossessed, then Piranesi.\n'],
    ];
    const { home, memoryDir, page, errors } = await openImportPanel('memory-import-zip');
    await fs.mkdir(path.join(home, 'Downloads'));
    await fs.writeFile(path.join(home, 'Downloads', 'notes.zip'), writeZip(notes.map(([name, text]) => ({ name: name!, data: Buffer.from(text!) })), new Date()));
    await page.getByRole('radio', { name: 'A folder of markdown notes (or a zip)' }).check();
    await page.getByRole('button', { name: 'Choose…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a notes folder or a zip' });
    await dialog.getByRole('button', { name: /Downloads/ }).click();
    await dialog.getByRole('button', { name: /notes\.zip/ }).waitFor();
    await themedScreenshots(page, 'memory-import-zip-chooser');
    await dialog.getByRole('button', { name: /notes\.zip/ }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Notes folder or zip').inputValue()).toBe(path.join(home, 'Downloads', 'notes.zip'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: /^Preview: 2 of 2 to import/ }).waitFor();
    await page.getByRole('button', { name: 'Write 2 memories to penny' }).click();

    const written = page.getByRole('status').filter({ hasText: 'Written (2)' });
    await written.getByRole('button', { name: 'Trip to Kyoto' }).waitFor();
    await written.getByRole('button', { name: 'Reading list' }).waitFor();
    await screenshots(page, 'memory-import-zip-written', 'Bring memory in');
    const before = (await fs.readdir(memoryDir)).sort();
    expect(before).toHaveLength(3);

    await written.getByRole('button', { name: 'Undo this import' }).click();
    await page.locator('.import-written').getByText('Import undone').waitFor();
    await expect.poll(async () => fs.readdir(memoryDir)).toEqual(['MEMORY.md']);
    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).not.toMatch(/Kyoto|Reading/);
    await page.getByRole('button', { name: 'Bring them back' }).click();
    await written.getByRole('button', { name: 'Trip to Kyoto' }).click();
    await expect.poll(async () => (await fs.readdir(memoryDir)).sort()).toEqual(before);
    await page.locator('.file-header').getByRole('heading', { name: 'Trip to Kyoto', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  });

  it('flags a pasted secret in the preview by kind and line without showing it; leave it out, or say it is not one', async () => {
    const rng = new SeededRandom(31);
    const token = githubToken(rng, 'ghp');
    const password = `${rng.chars(ALNUM, 12)}7q`;
    const { root, memoryDir, page, errors } = await openImportPanel('memory-import-secret');
    await page.getByLabel('Pasted answer').fill(`- [2024-05-12] My github token is ${token}\n- [2024-06-01] Test database password: ${password}\n- Prefers concise answers`);
    await page.getByRole('button', { name: 'Preview' }).click();

    await page.getByRole('heading', { name: 'Preview: 1 of 3 to import from ChatGPT' }).waitFor();
    await page.getByText('2 memories are kept out: they may hold secrets.').waitFor();
    const tokenItem = page.getByRole('listitem', { name: 'My github token is [secret-removed]' });
    await tokenItem.getByText('GitHub personal access token, on line 1 of its text').waitFor();
    expect(await tokenItem.getByLabel('Keep').isDisabled()).toBe(true);
    expect(await tokenItem.getByLabel('Text', { exact: true }).inputValue()).toMatch(/^My github token is \[secret-removed\]\./);
    // The value is nowhere in the preview: not in a field, a finding or a file name.
    const shown = await page.locator('.import-result').evaluate((preview) => [(preview as HTMLElement).innerText, ...Array.from(preview.querySelectorAll('input, textarea'), (e) => (e as HTMLInputElement).value)].join('\n'));
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(password);
    await expectAccessible(page);
    await screenshots(page, 'memory-import-secret', 'Preview:');

    await tokenItem.getByRole('button', { name: 'Leave the secret out and keep the rest' }).click();
    const dbItem = page.getByRole('listitem', { name: 'Test database password: [secret-removed]' });
    await dbItem.getByRole('button', { name: 'Not a secret: Password assigned in configuration or code, on line 1 of its text' }).click();
    await page.getByRole('heading', { name: 'Preview: 3 of 3 to import from ChatGPT' }).waitFor();
    // A secret typed in after the preview: the write scans again in main and keeps that one out.
    const later = githubToken(rng, 'ghp');
    const concise = page.getByRole('listitem', { name: 'Prefers concise answers' });
    await concise.getByLabel('Text', { exact: true }).fill(`Prefers concise answers; the CI token is ${later}.`);
    await page.getByRole('button', { name: 'Write 3 memories to penny' }).click();
    await page.getByRole('status').filter({ hasText: 'Written (2)' }).getByText('1 kept out for a possible secret').waitFor();
    await concise.getByText('GitHub personal access token, on line 1 of its text').waitFor();
    await concise.getByRole('button', { name: 'Leave the secret out and keep the rest' }).click();
    await page.getByRole('button', { name: 'Write 1 memory to penny' }).click();
    await page.getByRole('status').filter({ hasText: 'Written (1)' }).waitFor();

    const files = Object.fromEntries(await Promise.all((await fs.readdir(memoryDir)).map(async (n) => [n, await fs.readFile(path.join(memoryDir, n), 'utf8')] as const)));
    expect(Object.keys(files).sort()).toEqual(['MEMORY.md', 'feedback_prefers_concise_answers.md', 'user_my_github_token_is_secret_removed.md', 'user_test_database_password_secret_removed.md']);
    for (const value of [token, later]) expect(JSON.stringify(files)).not.toContain(value);
    expect(files['user_my_github_token_is_secret_removed.md']).toContain('My github token is [secret-removed].');
    expect(files['feedback_prefers_concise_answers.md']).toContain('the CI token is [secret-removed].');
    // Marked "Not a secret" (one value, in the vault's list): written as pasted, but never into a name or MEMORY.md.
    expect(files['user_test_database_password_secret_removed.md']).toContain(`Test database password: ${password}.`);
    expect(files['MEMORY.md']).not.toContain(password);
    expect(SecretAllowanceStore.forVault(root).list().map((a) => [a.rule, a.where])).toEqual([['generic-password', 'memory import: user_test_database_password_secret_removed.md']]);
    expect(errors).toEqual([]);
  });
});
