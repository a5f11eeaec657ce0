import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { tempDir } from '../../support/temp-dir.js';
import { startApp, type TestApp } from './app.js';

/** The app with a new project folder `name` opened in its vault, and that project's memory folder made. */
export async function startAppWithMemory(name: string): Promise<{ app: TestApp; project: string; dir: string }> {
  const project = path.join(await tempDir('strata-e2e-memory-'), name);
  await fs.mkdir(project);
  const app = await startApp(await tempDir());
  const vault = app.services.vault();
  await vault.ready;
  await vault.projects.open(project);
  const dir = (await vault.sessions.paths(project)).memoryDir;
  await fs.mkdir(dir, { recursive: true });
  return { app, project, dir };
}

/** Opens `project` in the sidebar, the Inbox through Ctrl+K "tidy memory", and starts a tidy pass; the Inbox region. */
export async function tidyMemoryNow(page: Page, project: string): Promise<Locator> {
  await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: project, exact: true }).click();
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Commands' }).fill('tidy memory');
  await page.keyboard.press('Enter');
  const inbox = page.getByRole('region', { name: 'Review inbox' });
  await inbox.getByRole('button', { name: 'Tidy memory now' }).click();
  return inbox;
}
