import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamAdmin, TeamServer } from '../../server/index.js';
import { openTeamSync } from '../../main/core/team-sync/open-team-sync.js';
import { ProjectPaths } from '../../main/core/paths/index.js';
import { systemClock } from '../../main/core/ports.js';
import { tempDir } from '../support/temp-dir.js';
import { testLogger } from '../support/test-logger.js';
import type { TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { startAppWithSite, startTeam } from './support/team-app.js';
import { themedScreenshots } from './support/screenshots.js';
import { signInToTeam } from './support/team-sign-in.js';

const REPO = 'acme/site';
const PASSWORD = 'correct horse battery';
const ONCALL = '---\nname: On-call\ndescription: who is on call\ntype: project\n---\n\nRotate on-call on Mondays.\n';
const notes = (n: number) => Array.from({ length: n }, (_, i) => `- [Note ${i}](note-${i}.md) — what note ${i} says`);

/**
 * Restore, under Recently deleted, of a team memory a teammate deleted, at a full team MEMORY.md
 * (docs/memory.md#vault-upkeep): the memory is back, the team index is left as it is, and the toast
 * names the cap and, since the tidy-up works on the user's own memories only, offers the team MEMORY.md
 * to shorten. Lee, the teammate, is a headless engine.
 */
describe.skipIf(!hasChromium)('restoring a teammate’s deletion at a full team index, in Chromium', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let server: TeamServer | null = null;
  let admin: TeamAdmin | null = null;
  const serverLogs = testLogger();
  afterEach(async () => {
    await app?.close();
    await server?.close();
    await admin?.close();
    [app, server, admin] = [null, null, null];
    serverLogs.assertNoErrors();
  });

  it('brings the memory back without its line, leaves the 200-line index as it is, and says which cap stopped it', async () => {
    ({ server, admin } = await startTeam(REPO, { dana: PASSWORD, lee: null }, serverLogs.logger));
    const leeToken = (await admin.createToken('lee', null)).token;
    const lee = await openTeamSync({
      vaultRoot: await tempDir('strata-e2e-lee-'),
      projectDir: await tempDir('strata-e2e-lee-site-'),
      serverUrl: server.url,
      teamRepo: REPO,
      getToken: async () => leeToken,
      clock: systemClock,
      logger: testLogger().logger,
    });
    await fs.mkdir(lee.teamDir, { recursive: true });
    await fs.writeFile(path.join(lee.teamDir, 'oncall.md'), ONCALL);
    await fs.writeFile(path.join(lee.teamDir, 'MEMORY.md'), `${['- [On-call](oncall.md) — who is on call', ...notes(199)].join('\n')}\n`);
    await lee.engine.sync();

    let project: string;
    ({ app, project } = await startAppWithSite());
    const { page, errors } = await openPage(browser(), app.host.url, 'team-restore-index-cap');
    await page.locator('.project-item', { hasText: 'site' }).click();
    await signInToTeam(page, server.url, REPO, 'dana', PASSWORD);
    const danaDir = (await ProjectPaths.resolve(app.services.vault().root, project)).teamMemoryDir;
    await expect.poll(() => fs.readFile(path.join(danaDir, 'oncall.md'), 'utf8').catch(() => null), { timeout: 20_000 }).toBe(ONCALL);

    // Lee deletes it, and another memory takes its line: the team index is at its 200-line cap.
    await fs.rm(path.join(lee.teamDir, 'oncall.md'));
    const full = `${notes(200).join('\n')}\n`;
    await fs.writeFile(path.join(lee.teamDir, 'MEMORY.md'), full);
    await lee.engine.sync();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => fs.readFile(path.join(danaDir, 'MEMORY.md'), 'utf8'), { timeout: 20_000 }).toBe(full);

    await page.getByRole('button', { name: 'Team memory synced' }).click();
    await page.getByRole('heading', { name: 'Recently deleted' }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'oncall.md' }).getByRole('button', { name: 'Restore' }).click();
    const toast = page.locator('.toast');
    await toast
      .getByText('Restored oncall.md; it will be shared again on the next sync. It is not listed in the team MEMORY.md: the index is full, and the agent reads only its first 200 lines')
      .waitFor();
    expect(await fs.readFile(path.join(danaDir, 'oncall.md'), 'utf8')).toBe(ONCALL);
    expect(await fs.readFile(path.join(danaDir, 'MEMORY.md'), 'utf8')).toBe(full);
    await toast.getByText('The tidy-up works on your own memories, not the team’s: shorten the team MEMORY.md to make room.').waitFor();
    await themedScreenshots(page, 'team-index-full-toast');
    await page.setViewportSize({ width: 1200, height: 780 });
    await toast.getByRole('button', { name: 'Open the team MEMORY.md' }).click();
    await page.locator('#file-title', { hasText: 'MEMORY.md' }).waitFor();
    expect(await page.locator('.tree-file[aria-current="true"]').getAttribute('title')).toMatch(/\/memory\/team\/MEMORY\.md$/);
    expect(errors).toEqual([]);
  });
});
