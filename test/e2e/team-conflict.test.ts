import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../server/index.js';
import { openTeamSync, type OpenedTeamSync } from '../../main/core/team-sync/open-team-sync.js';
import { systemClock } from '../../main/core/ports.js';
import { ProjectPaths } from '../../main/core/paths/index.js';
import { tempDir } from '../support/temp-dir.js';
import { testLogger } from '../support/test-logger.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { signInToTeam } from './support/team-sign-in.js';

const REPO = 'acme/site';
const PASSWORD = 'correct horse battery';
const ORIGINAL = '---\nname: Release checklist\ndescription: Steps before tagging a release\ntype: project\n---\n- Run the tests.\n';
const THEIRS = '---\nname: Release checklist\ndescription: Steps before tagging a release\ntype: project\n---\n- Run the tests.\n- Update the changelog.\n';


/**
 * Team memory in Chromium via `strata host` and a local team server (SQLite): Dana signs in in the new
 * tab the app opens; Lee, a teammate, is a second client with its own vault (the sync engine, headless).
 */
describe.skipIf(!hasChromium)('team memory in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let server: TeamServer | null = null;
  let admin: TeamAdmin | null = null;
  const serverLogs = testLogger();
  afterEach(async () => {
    await app?.close();
    await server?.close();
    await admin?.close();
    app = null;
    server = null;
    admin = null;
    serverLogs.assertNoErrors();
  });

  async function teammate(serverUrl: string, token: string): Promise<OpenedTeamSync> {
    const vault = await tempDir('strata-e2e-lee-');
    const project = await tempDir('strata-e2e-lee-site-');
    const log = testLogger();
    const opened = await openTeamSync({
      vaultRoot: vault,
      projectDir: project,
      serverUrl,
      teamRepo: REPO,
      getToken: async () => token,
      clock: systemClock,
      logger: log.logger,
    });
    await fs.mkdir(opened.teamDir, { recursive: true });
    return opened;
  }

  it('signs in in a new tab, receives a teammate memory, resolves a conflict in the resolver, and pushes it', async () => {
    const dir = await tempDir('strata-e2e-team-server-');
    const db = `sqlite:${path.join(dir, 'team.db')}`;
    admin = await TeamAdmin.open(db);
    await admin.addUser('dana', PASSWORD);
    await admin.addUser('lee', null);
    await admin.grant('dana', REPO);
    await admin.grant('lee', REPO);
    const leeToken = (await admin.createToken('lee', null)).token;
    server = await startTeamServer({ db, port: 0, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 } });

    // Lee shares a memory before Dana has signed in.
    const lee = await teammate(server.url, leeToken);
    const leeFile = path.join(lee.teamDir, 'release.md');
    await fs.writeFile(leeFile, ORIGINAL);
    expect((await lee.engine.sync()).pushed).toEqual(['release.md']);

    const appData = await tempDir('strata-e2e-dana-');
    const project = path.join(appData, 'site');
    await fs.mkdir(project);
    app = await startApp(appData);
    await app.services.vault().ready;
    await app.services.vault().projects.open(project);
    const { page, errors } = await openPage(browser(), app.host.url, 'team-conflict');
    await page.locator('.project-item', { hasText: 'site' }).click();

    await signInToTeam(page, server.url, REPO, 'dana', PASSWORD);
    await expectAccessible(page);

    // Lee's memory arrived in Dana's vault.
    await page.locator('button.nav-item', { hasText: 'Vault' }).click();
    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: /Release checklist/ }).click();
    await page.getByText('Run the tests.').waitFor();

    // Both edit the same file: Lee's change reaches the server first, Dana saves hers in the editor.
    await fs.writeFile(leeFile, THEIRS);
    expect((await lee.engine.sync()).pushed).toEqual(['release.md']);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Text of Release checklist').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Tag from main.');
    await page.keyboard.press('Control+s');
    // Saved on disk first: a wait for the conflict below then only waits on the sync.
    const danaDir = (await ProjectPaths.resolve(app.services.vault().root, project)).teamMemoryDir;
    await expect.poll(() => fs.readFile(path.join(danaDir, 'release.md'), 'utf8'), { timeout: 15_000 }).toContain('Tag from main.');

    // The push 2 s later finds Lee's version: a conflict, both kept; the status bar says so.
    const indicator = page.getByRole('button', { name: /1 conflict/ });
    await indicator.waitFor({ timeout: 30_000 });
    await expect.poll(() => tree.getByRole('button', { name: /Release checklist/ }).textContent()).toContain('conflict');
    await indicator.click();
    await page.getByRole('heading', { name: /^Team memory/, level: 1 }).waitFor();
    // Listed and titled by the memory's name.
    await page.getByRole('button', { name: 'Release checklist', exact: true }).click();
    await page.getByRole('dialog', { name: 'Resolve Release checklist' }).waitFor();

    // Yours (the editable result) beside theirs; the base (read-only) one click away.
    await page.getByRole('button', { name: 'Show the base' }).click();
    const base = page.getByLabel('Base version (last agreed)');
    expect(await base.textContent()).toContain('Run the tests.');
    expect(await base.textContent()).not.toContain('Tag from main.');
    expect(await base.textContent()).not.toContain('Update the changelog.');
    const mine = page.getByLabel('Your version (the result, editable)');
    const theirs = page.getByLabel('Their version');
    expect(await mine.textContent()).toContain('Tag from main.');
    expect(await theirs.textContent()).toContain('Update the changelog.');
    await expectAccessible(page);

    // Dana merges by hand: she keeps her line and adds Lee's.
    await mine.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nUpdate the changelog.');
    await page.getByRole('button', { name: 'Save the result' }).click();
    await page.getByText('Resolved Release checklist; it will be pushed with the next sync.').waitFor();
    await page.getByRole('button', { name: 'Team memory synced' }).waitFor({ timeout: 20_000 });

    // Pushed: Lee's next sync brings Dana's merge.
    const merged = `${ORIGINAL}Tag from main.\nUpdate the changelog.`;
    await expect
      .poll(async () => {
        await lee.engine.sync();
        return fs.readFile(leeFile, 'utf8');
      }, { timeout: 15_000 })
      .toBe(merged);

    // A memory with a secret stays on this machine: listed with rule and line, opened at that line in one click.
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
    const secret = `ghp_${Array.from({ length: 36 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('')}`;
    await fs.writeFile(path.join(danaDir, 'deploy.md'), `Deploy notes\ntoken ${secret}\nAsk ops first.\n`);
    const blockedIndicator = page.getByRole('button', { name: /1 blocked/ });
    await blockedIndicator.waitFor({ timeout: 20_000 });
    await blockedIndicator.click();
    const blockedItem = page.getByRole('listitem').filter({ hasText: 'deploy.md' });
    await blockedItem.getByText('a GitHub personal access token on line 2').waitFor();
    // Its "Not a secret" is named by the kind of secret, never the scanner rule's id (docs/security.md#secrets-scanning).
    await blockedItem.getByRole('button', { name: 'Not a secret: a GitHub personal access token on line 2' }).waitFor();
    await blockedItem.getByRole('button', { name: 'Open at line 2' }).click();
    const atLine = page.getByLabel(/^Text of .*deploy\.md, at line 2$/);
    await atLine.waitFor();
    await page.getByText('What looks like a GitHub personal access token is on line 2 (marked).', { exact: false }).waitFor();
    expect(await page.locator('.at-line-editor .cm-activeLine').textContent()).toContain('token ghp_');
    await expectAccessible(page);
    // The cursor is already on the line: select it and replace the secret.
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('token kept in the password manager');
    await page.getByRole('group', { name: /deploy\.md at line 2/ }).getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Team memory synced' }).waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => {
        await lee.engine.sync();
        return fs.readFile(path.join(lee.teamDir, 'deploy.md'), 'utf8').catch(() => null);
      }, { timeout: 15_000 })
      .toBe('Deploy notes\ntoken kept in the password manager\nAsk ops first.\n');
    expect(errors).toEqual([]);
  });
});
