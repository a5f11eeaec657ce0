import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../../main/core/services.js';
import { silentLogger } from '../../main/core/ports.js';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { hasChromium, useBrowser } from './support/browser.js';

const MEMORIES = 4_000;

/** An app data folder whose vault holds one opened project with `MEMORIES` memories, its search cache removed. */
async function vaultWithManyMemories(): Promise<{ appData: string; project: string }> {
  const appData = await tempDir();
  const project = path.join(await tempDir(), 'billing');
  await fs.mkdir(project);
  const services = await createServices({ appDataDir: appData, shell: 'cli', logger: silentLogger, env: {} });
  const vault = services.vault();
  await vault.ready;
  const opened = await vault.projects.open(project);
  const { memoryDir } = await vault.sessions.paths(opened.path);
  await fs.mkdir(memoryDir, { recursive: true });
  for (let i = 0; i < MEMORIES; i++) {
    const text = `---\nname: rule ${i}\ndescription: how we handle case ${i}\ntype: project\n---\n\nCase ${i}: refunds go through the ledger, never by hand.\n`;
    await fs.writeFile(path.join(memoryDir, `rule_${i}.md`), text);
  }
  const root = vault.root;
  await services.close();
  // A cold start: the vault reads and indexes every file again.
  await fs.rm(path.join(root, '.strata', 'cache'), { recursive: true, force: true });
  return { appData, project: opened.path };
}

/** Page code (as text: the test's TypeScript has no DOM): every start screen the page ever showed, in order. */
const RECORD_SCREENS = `
  window.screensSeen = [];
  const note = (name) => { if (window.screensSeen.at(-1) !== name) window.screensSeen.push(name); };
  new MutationObserver(() => {
    const text = document.body ? document.body.innerText : '';
    if (document.getElementById('welcome-heading')) note('welcome');
    if (text.includes('No folders opened yet')) note('no folders');
    if (text.includes('Loading your projects')) note('loading');
    if (document.querySelector('.project-item')) note('projects');
    if (text.includes('Reading the vault')) note('reading the vault');
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

describe.skipIf(!hasChromium)('a cold start of a large vault in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('shows a loading state then the projects list, never the first-run welcome, while the vault is still opening', async () => {
    const { appData, project } = await vaultWithManyMemories();
    app = await startApp(appData);
    const context = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await context.addInitScript(RECORD_SCREENS);
      const page = await context.newPage();
      await page.goto(app.host.url);
      await page.locator('.project-item', { hasText: 'billing' }).waitFor();
      const openingWhenListed = app.services.vault().files.state === 'opening';
      await app.services.vault().ready;
      // Once searchable, the status bar no longer says the vault is being read.
      await page.locator('.status-bar', { hasText: 'Connected' }).waitFor();
      await expect.poll(() => page.locator('.status-bar').textContent()).not.toContain('Reading the vault');

      const seen = (await page.evaluate('window.screensSeen')) as string[];
      expect(seen[0]).toBe('loading');
      expect(seen).toContain('projects');
      expect(seen).not.toContain('welcome');
      expect(seen).not.toContain('no folders');
      // When the list came while the vault was still reading its files, the app said so.
      if (openingWhenListed) expect(seen).toContain('reading the vault');

      // The chat pane offers the project instead of greeting a new user.
      await page.getByRole('heading', { name: 'Choose a project' }).waitFor();
      await page.getByRole('button', { name: 'Open billing' }).click();
      expect(await page.locator('.project-item[aria-current="true"]').getAttribute('title')).toBe(project);
    } finally {
      await context.close();
    }
  });
});
