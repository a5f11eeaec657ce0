import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { startAppWithMemory } from './support/memory-project.js';
import { themedScreenshots } from './support/screenshots.js';

const memory = (name: string, type: string) => `---\nname: ${name}\ndescription: ${name}, seeded\ntype: ${type}\n---\n${name}.\n`;

describe.skipIf(!hasChromium)('the New memory form in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  closeAfterEach(() => [app]);

  it('lists each project once by its name and offers the four memory types in plain words', async () => {
    const started = await startAppWithMemory('lighthouse');
    app = started.app;
    await fs.writeFile(path.join(started.dir, 'prefers-tabs.md'), memory('Prefers tabs', 'user'));
    // A second opened project with memories of its own, so its folder is in the vault's list too.
    const harbor = path.join(path.dirname(started.project), 'harbor');
    await fs.mkdir(harbor);
    const vault = app.services.vault();
    await vault.projects.open(harbor);
    const harborDir = (await vault.sessions.paths(harbor)).memoryDir;
    await fs.mkdir(harborDir, { recursive: true });
    await fs.writeFile(path.join(harborDir, 'tide-table.md'), memory('Tide table', 'reference'));

    const { page, errors } = await openPage(browser(), app.host.url, 'new-memory-form');
    await page.locator('.project-item', { hasText: 'lighthouse' }).click();
    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Tide table/ }).waitFor();
    await page.getByRole('button', { name: 'New memory', exact: true }).click();
    await page.getByRole('heading', { name: 'New memory' }).waitFor();

    const project = page.getByLabel('Project', { exact: true });
    expect(await project.locator('option').allTextContents()).toEqual(['lighthouse', 'harbor']);
    expect(await project.inputValue()).toBe(`project:${started.project}`);
    const type = page.getByLabel('Type', { exact: true });
    expect(await type.locator('option').allTextContents()).toEqual(['About you', 'How to work', 'Project', 'Reference']);
    expect(await type.inputValue()).toBe('user');
    await page.getByText('Who you are, what you like.').waitFor();

    // By keyboard, as a person fills it: the other project, a reference.
    await project.focus();
    await project.selectOption({ label: 'harbor' });
    await page.getByLabel('Name', { exact: true }).fill('Harbour master');
    await page.getByLabel('Description').fill('Who to call about berths');
    await type.selectOption({ label: 'Reference' });
    await page.getByText('Links, dashboards, tickets.').waitFor();
    await page.getByLabel('Text', { exact: true }).fill('Call the harbour office.');
    await expectAccessible(page);
    await themedScreenshots(page, 'new-memory-form');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Create memory' }).click();
    await page.getByRole('heading', { name: 'Harbour master', level: 1 }).waitFor();
    const written = await fs.readFile(path.join(harborDir, 'harbour-master.md'), 'utf8');
    expect(written).toContain('type: reference');
    await expect(fs.access(path.join(started.dir, 'harbour-master.md'))).rejects.toThrow();
    expect(errors).toEqual([]);
  });
});
