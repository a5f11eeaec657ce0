import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../server/index.js';
import { ProjectPaths } from '../../main/core/paths/index.js';
import { tempDir } from '../support/temp-dir.js';
import { testLogger } from '../support/test-logger.js';
import { startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { themedScreenshots } from './support/screenshots.js';
import { signInToTeam } from './support/team-sign-in.js';

const REPO = 'acme/site';
const PASSWORD = 'correct horse battery';
/** A clock time as the app shows it: `14:05`, or `2:05 PM` in a 12-hour locale. */
const CLOCK = String.raw`\d{1,2}:\d{2}(?: [AP]M)?`;
const NOTE = '---\nname: Deploy steps\ndescription: How we ship the site\ntype: project\n---\n- Build, then upload.\n';

/** A server on `port` that takes every connection and never writes a byte: a team server that hangs. */
async function silentServer(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * docs/memory.md#team-sync: a sync waits on a server that never answers `teamSync.unansweredBudgetMs` in
 * all, then ends offline with the changes pending; the status bar and the team panel say when it tries
 * next, and "Try now" pushes them once the server is back.
 */
describe.skipIf(!hasChromium)('team memory while the team server does not answer', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let server: TeamServer | null = null;
  let silent: { close(): Promise<void> } | null = null;
  let admin: TeamAdmin | null = null;
  const serverLogs = testLogger();
  afterEach(async () => {
    await app?.close();
    await silent?.close();
    await server?.close();
    await admin?.close();
    app = server = silent = admin = null;
    serverLogs.assertNoErrors();
  });

  it('says offline with the change pending and the next try, and "Try now" pushes it once the server is back', async () => {
    const dir = await tempDir('strata-e2e-team-offline-');
    const db = `sqlite:${path.join(dir, 'team.db')}`;
    admin = await TeamAdmin.open(db);
    await admin.addUser('dana', PASSWORD);
    await admin.grant('dana', REPO);
    const readToken = (await admin.createToken('dana', null)).token;
    server = await startTeamServer({ db, port: 0, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 } });
    const url = server.url;
    const port = Number(new URL(url).port);
    const onServer = async (key: string): Promise<string | null> => {
      const res = await fetch(`${url}/api/team_memory?repo=${encodeURIComponent(REPO)}`, { headers: { authorization: `Bearer ${readToken}` } });
      const body = (await res.json()) as { content?: { entries?: Record<string, string | null> } };
      return body.content?.entries?.[key] ?? null;
    };

    const appData = await tempDir('strata-e2e-dana-');
    const project = path.join(appData, 'site');
    await fs.mkdir(project);
    app = await startApp(appData);
    await app.services.vault().ready;
    // The product waits 60 s in all; 2 s here (a vault setting, as a user's settings.json would say).
    await app.services.vault().settings.update({ memory: { teamSync: { unansweredBudgetMs: 2000 } } });
    await app.services.vault().projects.open(project);
    const teamDir = (await ProjectPaths.resolve(app.services.vault().root, project)).teamMemoryDir;
    await fs.mkdir(teamDir, { recursive: true });
    await fs.writeFile(path.join(teamDir, 'deploy.md'), NOTE);

    const { page, errors } = await openPage(browser(), app.host.url, 'team-offline');
    await page.locator('.project-item', { hasText: 'site' }).click();
    await signInToTeam(page, url, REPO, 'dana', PASSWORD);
    // The first sync pushed the memory.
    await expect.poll(() => onServer('deploy.md'), { timeout: 10_000 }).toBe(NOTE);

    // The server goes away; on its port, something that accepts connections and never answers.
    await server.close();
    server = null;
    silent = await silentServer(port);

    // Dana edits the memory in the vault editor; the push 2 s later meets the silent server.
    await page.locator('button.nav-item', { hasText: 'Vault' }).click();
    await page.getByRole('navigation', { name: 'Vault files' }).getByRole('button', { name: /Deploy steps/ }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Text of Deploy steps').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- Tell the team in #ship.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => fs.readFile(path.join(teamDir, 'deploy.md'), 'utf8'), { timeout: 15_000 }).toContain('Tell the team');

    // The status bar: offline, one change pending, and when it tries next (a clock time, minutes away).
    const indicator = page.getByRole('button', { name: new RegExp(`^Offline — 1 change pending · next try ${CLOCK}$`) });
    await indicator.waitFor({ timeout: 20_000 });
    expect(await indicator.getAttribute('title')).toBe('offline — changes stay pending (the team server did not answer within 2 s)');

    // The team panel says the same in a sentence, with the next try and "Try now".
    await indicator.click();
    await page.getByRole('heading', { name: `Team memory — ${REPO}`, level: 1 }).waitFor();
    const notice = page.locator('.conflicts-panel').getByRole('status');
    await expect
      .poll(() => notice.textContent())
      .toMatch(new RegExp(String.raw`^Offline — changes stay pending \(the team server did not answer within 2 s\)\. Strata tries again at ${CLOCK}\. Try now$`));
    await expectAccessible(page);
    await themedScreenshots(page, 'team-offline');
    // At 1024 px the long paths give way: the sync state and the version stay whole in the status bar.
    const right = await page.locator('.status-bar').evaluate((bar) => Array.from(bar.children, (c) => c.getBoundingClientRect().right));
    expect(Math.max(...right)).toBeLessThanOrEqual(1024);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The server is back on the same port; "Try now" pushes the edit at once.
    await silent.close();
    silent = null;
    server = await startTeamServer({ db, port, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 } });
    await notice.getByRole('button', { name: 'Try now' }).click();
    await page.getByRole('button', { name: 'Team memory synced' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => notice.count()).toBe(0);
    expect(await onServer('deploy.md')).toBe(`${NOTE}- Tell the team in #ship.`);
    expect(errors).toEqual([]);
  });
});
