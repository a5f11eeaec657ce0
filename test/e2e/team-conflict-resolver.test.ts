import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../server/index.js';
import { openTeamSync, type OpenedTeamSync } from '../../main/core/team-sync/open-team-sync.js';
import { parseMemoryFile } from '../../common/memory-file/index.js';
import { parseIndex } from '../../main/core/vault/memory-index.js';
import { systemClock } from '../../main/core/ports.js';
import { ProjectPaths } from '../../main/core/paths/index.js';
import { tempDir } from '../support/temp-dir.js';
import { testLogger } from '../support/test-logger.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { docsShot, themedScreenshots } from './support/screenshots.js';
import { signInToTeam } from './support/team-sign-in.js';

const REPO = 'acme/site';
const PASSWORD = 'correct horse battery';
const memory = (lines: string[], description = 'How the team indents code') =>
  ['---', 'name: Prefers tabs', `description: ${description}`, 'type: feedback', '---', ...lines, ''].join('\n');
const BODY = ['Indent with tabs.', '', '**Why:** diffs stay small.', '', '**How to apply:** every language but YAML.'];
const ORIGINAL = memory(BODY);
// Both change the description and the first line; Lee the last too: that is his alone and merges.
const LEES = memory(['Indent with tabs, shown 4 wide.', ...BODY.slice(1, 4), '**How to apply:** every language but YAML and Makefiles.'], 'How we indent code');
const DANAS = memory(['Indent with tabs, shown 2 wide.', ...BODY.slice(1)], 'How the team indents its code');
const INDEX = '- [Prefers tabs](tabs.md) — how the team indents code\n';


/**
 * The conflict resolver in Chromium via `strata host` and a real team server (SQLite): Dana signs in
 * through the app, Lee is a teammate's headless sync engine with its own vault. Screenshots of the
 * resolver at 1280×800 and 1024×700, light and dark, go to docs/screenshots/team-resolver-*.png.
 */
describe.skipIf(!hasChromium)('team conflict resolver in Chromium', () => {
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
    const opened = await openTeamSync({
      vaultRoot: await tempDir('strata-e2e-lee-'),
      projectDir: await tempDir('strata-e2e-lee-site-'),
      serverUrl,
      teamRepo: REPO,
      getToken: async () => token,
      clock: systemClock,
      logger: testLogger().logger,
    });
    await fs.mkdir(opened.teamDir, { recursive: true });
    return opened;
  }

  /** Width of each of the two editors of the merge view. */
  async function paneWidths(page: Page): Promise<number[]> {
    return page.locator('.resolver-merge .cm-mergeViewEditor').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
  }

  it('shows yours and theirs side by side with who and when, takes a chunk, shows the base, and keeps both under distinct names', async () => {
    const dir = await tempDir('strata-e2e-team-server-');
    const db = `sqlite:${path.join(dir, 'team.db')}`;
    admin = await TeamAdmin.open(db);
    await admin.addUser('dana', PASSWORD);
    await admin.addUser('lee', null);
    await admin.grant('dana', REPO);
    await admin.grant('lee', REPO);
    const leeToken = (await admin.createToken('lee', null)).token;
    server = await startTeamServer({ db, port: 0, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 } });

    const lee = await teammate(server.url, leeToken);
    await fs.writeFile(path.join(lee.teamDir, 'tabs.md'), ORIGINAL);
    await fs.writeFile(path.join(lee.teamDir, 'MEMORY.md'), INDEX);
    expect((await lee.engine.sync()).pushed.sort()).toEqual(['MEMORY.md', 'tabs.md']);

    const appData = await tempDir('strata-e2e-dana-');
    const project = path.join(appData, 'site');
    await fs.mkdir(project);
    app = await startApp(appData);
    await app.services.vault().ready;
    await app.services.vault().projects.open(project);
    const danaDir = (await ProjectPaths.resolve(app.services.vault().root, project)).teamMemoryDir;
    const { page, errors } = await openPage(browser(), app.host.url, 'team-conflict-resolver');
    await page.locator('.project-item', { hasText: 'site' }).click();
    await signInToTeam(page, server.url, REPO, 'dana', PASSWORD);
    await expect.poll(() => fs.readFile(path.join(danaDir, 'tabs.md'), 'utf8').catch(() => null), { timeout: 15_000 }).toBe(ORIGINAL);

    // Both change the first line: Lee's reaches the server first; Dana's, saved on disk, meets it.
    await fs.writeFile(path.join(lee.teamDir, 'tabs.md'), LEES);
    expect((await lee.engine.sync()).pushed).toEqual(['tabs.md']);
    await fs.writeFile(path.join(danaDir, 'tabs.md'), DANAS);
    const indicator = page.getByRole('button', { name: /1 conflict/ });
    await indicator.waitFor({ timeout: 20_000 });
    await indicator.click();
    // Listed by the memory's name.
    await page.getByRole('button', { name: 'Prefers tabs', exact: true }).click();
    // Titled by the memory's name, the file name beside it.
    const dialog = page.getByRole('dialog', { name: 'Resolve Prefers tabs' });
    await dialog.waitFor();
    await dialog.locator('.resolver-file', { hasText: 'tabs.md' }).waitFor();

    // Two panes, labelled from Dana's side, with who and when.
    const yours = dialog.getByLabel('Your version (the result, editable)');
    const theirs = dialog.getByLabel('Their version');
    await expect.poll(() => yours.textContent()).toContain('shown 2 wide');
    expect(await theirs.textContent()).toContain('shown 4 wide');
    // Lee's change that does not touch Dana's is already in the result; only the first line is left.
    expect(await yours.textContent()).toContain('but YAML and Makefiles.');
    // The frontmatter reads as fields: the panes hold the body, the name and type show once, the
    // description both ways with yours kept.
    for (const pane of [yours, theirs]) expect(await pane.textContent()).not.toMatch(/---|description:|type:/);
    const fields = dialog.getByRole('group', { name: 'Name, description and type' });
    expect(await fields.innerText()).toMatch(/Name\s+Prefers tabs\s+Description\s+Description: which one to keep\s+Yours How the team indents its code\s+Theirs How we indent code\s+Type\s+Feedback/);
    expect(await fields.getByRole('radio', { name: 'Yours How the team indents its code' }).isChecked()).toBe(true);
    // Yours is drawn in the accent, never in a deletion's red (its blue outweighs its red), theirs apart from it.
    const tint = (selector: string) =>
      dialog.locator(selector).first().evaluate((el) => getComputedStyle(el).backgroundColor.match(/[\d.]+/g)!.map(Number));
    for (const selector of ['.cm-merge-a .cm-changedText', '.cm-merge-a .cm-changedLineGutter']) {
      const [r, , b] = await tint(selector);
      expect(b, selector).toBeGreaterThan(r!);
    }
    expect(await tint('.cm-merge-b .cm-changedText')).not.toEqual(await tint('.cm-merge-a .cm-changedText'));
    await dialog.getByText(/already in the result/).waitFor();
    await dialog.getByText('Yours — dana, on this computer · the result').waitFor();
    // The team server records who made each change and when.
    await dialog.getByText(/^Theirs — changed by lee · [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M$/).waitFor();
    expect(await dialog.getByLabel('Base version (last agreed)').count()).toBe(0);
    // The changed line is marked on both sides.
    expect(await dialog.locator('.cm-changedLine').count()).toBeGreaterThanOrEqual(2);
    await expectAccessible(page);

    for (const [width, height] of [
      [1280, 800],
      [1024, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      // Usable: each pane wide enough for a line of prose (the three-column view gave 130–230 px).
      const widths = await paneWidths(page);
      expect(widths).toHaveLength(2);
      for (const w of widths) expect(w).toBeGreaterThan(width === 1024 ? 420 : 540);
      expect(await dialog.getByRole('button', { name: 'Keep both' }).isVisible()).toBe(true);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: docsShot(`screenshots/team-resolver-${width}x${height}-${scheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }

    // The base, one click away (and away again).
    await dialog.getByRole('button', { name: 'Show the base' }).click();
    const base = dialog.getByLabel('Base version (last agreed)');
    expect(await base.textContent()).toContain('Indent with tabs.');
    expect(await base.textContent()).not.toContain('wide');
    await fields.getByText('Before: How the team indents code').waitFor();
    // The choices stay on screen with the base open, even at 1024×700.
    expect(await dialog.getByRole('button', { name: 'Keep both' }).boundingBox()).toMatchObject({ y: expect.any(Number) });
    expect((await dialog.getByRole('button', { name: 'Keep both' }).boundingBox())!.y).toBeLessThan(700 - 30);
    // Whole, inside the dialog (not cut by its edge), with the fields above the panes too.
    const keepBoth = (await dialog.getByRole('button', { name: 'Keep both' }).boundingBox())!;
    const box = (await dialog.boundingBox())!;
    expect(keepBoth.y + keepBoth.height).toBeLessThanOrEqual(box.y + box.height);
    await page.screenshot({ path: docsShot('screenshots/team-resolver-base-1024x700-light.png') });
    await dialog.getByRole('button', { name: 'Hide the base' }).click();
    expect(await base.count()).toBe(0);

    // Take their line for the one change left: the result now reads as theirs.
    const save = dialog.getByRole('button', { name: 'Save the result' });
    expect(await save.isEnabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Take their lines for this change' }).count()).toBe(1);
    // By keyboard: Tab leaves the result for the change's control, Enter takes it.
    await yours.click();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Take their lines for this change');
    await page.keyboard.press('Enter');
    await expect.poll(() => yours.textContent()).toContain('shown 4 wide');
    expect(await yours.textContent()).not.toContain('shown 2 wide');
    expect(await yours.textContent()).toBe(await theirs.textContent());
    // Their description too: the result is now their file whole.
    await fields.getByRole('radio', { name: 'Theirs How we indent code' }).check();
    // …and typed back by hand: the result is an editor.
    await yours.click();
    // The pane holds the body only: its first line is the one both changed.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.type(' Or 2 wide.');
    await expect.poll(() => yours.textContent()).toContain('shown 4 wide. Or 2 wide.');

    // Keep both instead: the team's version keeps the name, Dana's becomes a distinct memory in MEMORY.md…
    const toast = page.locator('.toast');
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await toast.getByText('Kept both versions of Prefers tabs: theirs under its name, yours as a separate memory.').waitFor();
    expect(await dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'Team memory synced' }).waitFor({ timeout: 20_000 });
    expect(await fs.readFile(path.join(danaDir, 'tabs.md'), 'utf8')).toBe(LEES);
    const firstCopy = (await fs.readdir(danaDir)).filter((f) => f.startsWith('tabs-dana-'));
    expect(firstCopy).toHaveLength(1);

    // …and Undo, after it was pushed: the conflict is back as it was, the copy and its index line gone.
    await toast.getByRole('button', { name: 'Undo' }).click();
    await toast.getByText('Prefers tabs is in conflict again, as before Keep both.').waitFor();
    expect(await fs.readFile(path.join(danaDir, 'tabs.md'), 'utf8')).toBe(DANAS);
    expect(await fs.readFile(path.join(danaDir, 'MEMORY.md'), 'utf8')).toBe(INDEX);
    expect((await fs.readdir(danaDir)).filter((f) => f.startsWith('tabs-dana-'))).toEqual([]);
    await page.getByRole('button', { name: /1 conflict/ }).waitFor({ timeout: 20_000 });

    // The memory's own view says it is in conflict, and Resolve opens the resolver on it.
    await page.locator('button.nav-item', { hasText: 'Vault' }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /^Prefers tabs/ }).first().click();
    const banner = page.getByRole('status').filter({ hasText: 'This memory has a conflict.' });
    await banner.waitFor();
    await themedScreenshots(page, 'team-conflict-banner');
    await page.setViewportSize({ width: 1280, height: 800 });
    await banner.getByRole('button', { name: 'Resolve' }).click();
    await dialog.waitFor();
    await expect.poll(() => yours.textContent()).toContain('shown 2 wide');
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await toast.getByText(/^Kept both versions of Prefers tabs/).waitFor();
    await page.getByRole('button', { name: 'Team memory synced' }).waitFor({ timeout: 20_000 });
    // Resolved, the memory's view has no banner left.
    await page.locator('button.nav-item', { hasText: 'Vault' }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /^Prefers tabs(?! \()/ }).click();
    await page.locator('.file-pane h1', { hasText: 'Prefers tabs' }).waitFor();
    expect(await banner.count()).toBe(0);
    expect(await fs.readFile(path.join(danaDir, 'tabs.md'), 'utf8')).toBe(LEES);
    const copies = (await fs.readdir(danaDir)).filter((f) => f.startsWith('tabs-dana-'));
    expect(copies).toHaveLength(1);
    const copyName = parseMemoryFile(await fs.readFile(path.join(danaDir, copies[0]!), 'utf8'));
    expect(copyName.name).toMatch(/^Prefers tabs \(dana's version, \d{1,2} Dec\)$/);
    expect(copyName.body).toContain('shown 2 wide');
    const danaIndex = parseIndex(await fs.readFile(path.join(danaDir, 'MEMORY.md'), 'utf8')).map((p) => p.target);
    expect(danaIndex).toEqual(['tabs.md', copies[0]]);

    // Lee's vault: his own text under the original name, Dana's under her name; nothing says "theirs".
    await expect
      .poll(async () => {
        await lee.engine.sync();
        return fs.readFile(path.join(lee.teamDir, copies[0]!), 'utf8').catch(() => null);
      }, { timeout: 15_000 })
      .not.toBeNull();
    expect(await fs.readFile(path.join(lee.teamDir, 'tabs.md'), 'utf8')).toBe(LEES);
    expect(parseMemoryFile(await fs.readFile(path.join(lee.teamDir, copies[0]!), 'utf8')).name).toBe(copyName.name);
    expect((await fs.readdir(lee.teamDir)).filter((f) => /theirs/i.test(f))).toEqual([]);

    // In Dana's vault tree the two memories read differently.
    await page.locator('button.nav-item', { hasText: 'Vault' }).click();
    const tree = page.getByRole('navigation', { name: 'Vault files' });
    await tree.getByRole('button', { name: /Prefers tabs \(dana's version/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
