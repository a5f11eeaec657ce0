import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMemoryFile, splitFrontmatter } from '../../common/memory-file/index.js';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';

const SLUG = '-work-site';

describe.skipIf(!hasChromium)('the memory form in Chromium via strata host writes the shape chosen in Settings', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('with the newest Claude Code format chosen, a type changed in the form goes under metadata, dated, with no top-level type', async () => {
    const appData = await tempDir();
    const dir = path.join(appData, 'projects', SLUG, 'memory');
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'prefers-tabs.md');
    await fs.writeFile(file, '---\nname: Prefers tabs\ndescription: The user indents with tabs\ntype: user\n---\nUse tabs.\n');
    await fs.writeFile(path.join(dir, 'MEMORY.md'), '- [Prefers tabs](prefers-tabs.md) — tabs\n');
    app = await startApp(appData);
    await app.services.vault().ready;
    const { page, errors } = await openPage(browser(), app.host.url, 'memory-form-shape');
    await page.getByRole('button', { name: /^Settings/ }).click();
    await page.getByRole('radio', { name: /newest Claude Code format/ }).check();
    await expect.poll(() => app!.services.vault().settings.get().memoryShape).toBe('metadata');

    await page.getByRole('button', { name: /^Vault/ }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Prefers tabs/ }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await page.getByLabel('Type').inputValue()).toBe('user');
    const before = Date.now();
    await page.getByLabel('Type').selectOption('feedback');
    await page.keyboard.press('Control+s');
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('type: feedback');
    const text = await fs.readFile(file, 'utf8');
    const yaml = parseYaml(splitFrontmatter(text)!.yaml) as { type?: string; metadata: { type: string; modified: string } };
    expect(yaml.type).toBeUndefined();
    expect(yaml.metadata.type).toBe('feedback');
    expect(Date.parse(yaml.metadata.modified)).toBeGreaterThanOrEqual(before - 1000);
    expect(parseMemoryFile(text)).toMatchObject({ name: 'Prefers tabs', type: 'feedback', shape: 'metadata', body: 'Use tabs.\n' });
    // The form reads the type back from metadata after the save.
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await page.getByLabel('Type').inputValue()).toBe('feedback');
    expect(errors).toEqual([]);
  });
});
