import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TranscriptBuilder } from '../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../support/temp-dir.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';

const SESSION = '0b8f3c1e-8a8e-4d1c-9a55-1f2e3d4c5b6a';

const memory = (name: string, description: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: project\n${extra}---\n${body}\n`;


/**
 * A memory's [[links]], backlinks and the conversation that wrote it, in Chromium via `strata host`
 * with the real vault engine resolving the links and the real transcript store naming the conversation.
 */
describe.skipIf(!hasChromium)('memory links in the vault browser', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('follows a [[link]], marks a missing one, lists backlinks and opens the conversation that wrote the memory', async () => {
    // The project is opened once to register it; the files are written while the app is stopped, so the
    // next start's scan finds them (a watcher event under a loaded CI machine can come late).
    const appData = await tempDir();
    app = await startApp(appData);
    const vault = app.services.vault();
    await vault.ready;
    const project = path.join(await tempDir('strata-e2e-links-'), 'site');
    await fs.mkdir(project, { recursive: true });
    const opened = await vault.projects.open(project);
    const { memoryDir } = await vault.sessions.paths(opened.path);
    await app.close();
    app = null;
    const files: Record<string, string> = {
      'deploy-steps.md': memory('Deploy steps', 'How we deploy', 'Connect through [[staging-vpn]] first, then follow [[release-notes]].', `originSessionId: ${SESSION}\n`),
      'staging-vpn.md': memory('Staging VPN', 'Staging needs the VPN', 'Only reachable over the VPN.'),
    };
    await fs.mkdir(memoryDir, { recursive: true });
    for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(memoryDir, name), text);
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), Object.keys(files).map((f) => `- [${f}](${f}) — seeded\n`).join(''));
    const transcript = new TranscriptBuilder(SESSION, opened.path);
    transcript.user('Plan the Friday deploy');
    transcript.assistant('Here is the plan.');
    await fs.writeFile(path.join(path.dirname(memoryDir), `${SESSION}.jsonl`), transcript.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    app = await startApp(appData);
    await app.services.vault().ready;

    const { page, errors } = await openPage(browser(), app.host.url, 'vault-memory-links');
    await page.getByRole('button', { name: /^Vault/ }).click();
    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: /Deploy steps/ }).click();
    await page.getByRole('heading', { name: 'Deploy steps', level: 1 }).waitFor();

    const missing = page.locator('.preview .wiki-link.missing');
    expect(await missing.textContent()).toContain('release-notes');
    expect(await missing.getAttribute('title')).toBe('Not written yet');
    await page.getByText('Written in conversation').waitFor();
    await expectAccessible(page);

    await page.locator('.preview').getByRole('link', { name: 'staging-vpn' }).click();
    await page.getByRole('heading', { name: 'Staging VPN', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Backlinks' }).getByRole('button', { name: 'Deploy steps' }).click();
    await page.getByRole('heading', { name: 'Deploy steps', level: 1 }).waitFor();

    await page.getByRole('button', { name: '“Plan the Friday deploy”' }).click();
    await page.getByRole('log', { name: 'Conversation' }).getByText('Here is the plan.').waitFor();
    expect(errors).toEqual([]);
  });
});
