import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../../../server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { apps, gitProject, PASSWORD, rel, REPO, signIn, startApp, teamDir, type App } from './team-app.js';
import { describeOnBackends } from '../../../server/helpers/backends.js';
import { canarySecret } from './sync-harness.js';

/** Team memory through the app's IPC handlers: two apps, two vaults, the real server (SQLite and PostgreSQL). */
describeOnBackends('team memory in the app (IPC handlers, real server, two vaults)', (backend) => {
let server: TeamServer;
let admin: TeamAdmin;
const serverLogs = testLogger();

beforeAll(async () => {
  admin = await TeamAdmin.open(backend.url());
  for (const user of ['ana', 'ben']) {
    await admin.addUser(user, PASSWORD);
    await admin.grant(user, REPO);
  }
  server = await startTeamServer({ db: backend.url(), port: 0, logger: serverLogs.logger, limits: { rateLimitPerMinute: 0 } });
});

afterAll(async () => {
  await server.close();
  await admin.close();
  serverLogs.assertNoErrors();
});

  it('signs in through the browser, keeps tokens in the credential store only, and a teammate memory arrives', async () => {
    const ana = await startApp('ana');
    const ben = await startApp('ben');
    const projectA = await gitProject();
    const projectB = await tempDir('strata-team-plain-');

    // Ana: the vault's server URL and the git remote. Ben: a per-project server URL and `teamRepo`.
    await ana.call('settings:set', { patch: { teamServerUrl: server.url } });
    const before = await ana.call('team:status', { project: projectA });
    expect(before).toMatchObject({ repo: REPO, repoProblem: null, serverUrl: server.url, signedIn: false, phase: 'disabled' });

    const lost = await ben.call('team:status', { project: projectB });
    expect(lost.repo).toBeNull();
    expect(lost.repoProblem).toMatch(/under Settings › This project/);
    expect(lost.serverUrl).toBeNull();
    expect((await ben.fail('team:sign-in', { project: projectB })).message).toMatch(/team server URL/);
    await ben.call('settings:set', {
      patch: { projects: { [projectB]: { autoMemory: true, extraction: true, teamSync: true, reviewMode: false, teamServerUrl: server.url, teamRepo: REPO } } },
    });
    // The settings change rebuilds the session and says so.
    await expect.poll(() => ben.statuses.at(-1)?.repo ?? null).toBe(REPO);

    await signIn(ana, projectA, 'ana');
    await signIn(ben, projectB, 'ben');

    const account = `team-server:${new URL(server.url).origin}`;
    const stored = JSON.parse((await ana.services.credentials.get(account))!) as { accessToken: string; refreshToken: string };
    expect(stored.accessToken).toBeTruthy();
    const settingsFile = await fs.readFile(path.join(ana.services.vault().root, '.strata', 'settings.json'), 'utf8');
    expect(settingsFile).not.toContain(stored.accessToken);
    expect(JSON.stringify(ana.log.entries)).not.toContain(stored.accessToken);
    expect(JSON.stringify(ana.statuses)).not.toContain(stored.accessToken);

    // Ana saves a team memory through the vault; the watcher schedules the push 2 s later by itself.
    const dirA = await teamDir(ana, projectA);
    const slugA = path.basename(path.dirname(path.dirname(dirA)));
    await ana.call('vault:create-memory', {
      projectSlug: slugA,
      team: true,
      fileName: 'deploys.md',
      name: 'Deploy window',
      description: 'When deploys may happen',
      type: 'project',
      body: 'Deploys only Tuesday to Thursday.\n',
    });
    const badge = async (app: App, file: string) =>
      (await app.call('vault:list-files', {})).find((f) => f.path === rel(app, file))?.syncState;
    // The badge waits on the vault watcher, which a full parallel run on 2 cores can slow by many seconds.
    await expect.poll(() => badge(ana, path.join(dirA, 'deploys.md')), { timeout: 30_000 }).toBe('synced');
    expect(ana.statuses.some((s) => s.phase === 'syncing')).toBe(true);

    // Ben syncs and sees it, badged as synced.
    const dirB = await teamDir(ben, projectB);
    const synced = await ben.call('team:sync-now', { project: projectB });
    expect(synced).toMatchObject({ phase: 'synced', pending: 0, conflicts: [], error: null });
    expect(await fs.readFile(path.join(dirB, 'deploys.md'), 'utf8')).toContain('Deploys only Tuesday to Thursday.');
    await expect.poll(() => badge(ben, path.join(dirB, 'deploys.md')), { timeout: 30_000 }).toBe('synced');

    // Sign-out revokes and forgets: nothing left in the credential store, sync disabled.
    const out = await ana.call('team:sign-out', { project: projectA });
    expect(out).toMatchObject({ signedIn: false, phase: 'disabled' });
    expect(await ana.services.credentials.get(account)).toBeNull();
    const revoked = await fetch(`${server.url}/api/team_memory?repo=${encodeURIComponent(REPO)}`, {
      headers: { authorization: `Bearer ${stored.accessToken}` },
    });
    expect(revoked.status).toBe(401);
    expect((await ana.fail('team:sync-now', { project: projectA })).code).toBe('permission_denied');
  }, 120_000);

  it('lists a teammate’s deletion as restorable, and Restore brings the memory back to both', async () => {
    const ana = await startApp('ana');
    const ben = await startApp('ben');
    const project = await gitProject();
    for (const app of [ana, ben]) await app.call('settings:set', { patch: { teamServerUrl: server.url } });
    await signIn(ana, project, 'ana');
    await signIn(ben, project, 'ben');
    const dirA = await teamDir(ana, project);
    const dirB = await teamDir(ben, project);
    await fs.mkdir(dirA, { recursive: true });
    await fs.writeFile(path.join(dirA, 'oncall.md'), 'Rotate on-call on Mondays.\n');
    await ana.call('team:sync-now', { project });
    await ben.call('team:sync-now', { project });
    expect(await fs.readFile(path.join(dirB, 'oncall.md'), 'utf8')).toBe('Rotate on-call on Mondays.\n');

    // Ben deletes it; the deletion reaches Ana, who gets it back.
    await fs.rm(path.join(dirB, 'oncall.md'));
    await ben.call('team:sync-now', { project });
    await ana.call('team:sync-now', { project });
    await expect(fs.stat(path.join(dirA, 'oncall.md'))).rejects.toThrow();
    const deleted = await ana.call('team:list-deleted', { project });
    expect(deleted).toEqual([{ key: 'oncall.md', path: rel(ana, path.join(dirA, 'oncall.md')), deletedAt: expect.any(String), by: 'remote' }]);
    expect(await ana.call('team:restore-deleted', { project, key: 'oncall.md' })).toEqual({ deleted: [] });
    expect(await fs.readFile(path.join(dirA, 'oncall.md'), 'utf8')).toBe('Rotate on-call on Mondays.\n');
    await ana.call('team:sync-now', { project });
    await ben.call('team:sync-now', { project });
    expect(await fs.readFile(path.join(dirB, 'oncall.md'), 'utf8')).toBe('Rotate on-call on Mondays.\n');
    expect((await ana.fail('team:restore-deleted', { project, key: 'oncall.md' })).code).toBe('not_found');
  });

  /** Ana and Ben share `key`, then both change it, Ana's first: Ben's sync finds the conflict. */
  async function conflictOn(key: string, names: [string, string]) {
    const ana = await startApp(names[0]);
    const ben = await startApp(names[1]);
    const projectA = await gitProject();
    const projectB = await gitProject();
    for (const app of [ana, ben]) await app.call('settings:set', { patch: { teamServerUrl: server.url } });
    await signIn(ana, projectA, 'ana');
    await signIn(ben, projectB, 'ben');
    const dirA = await teamDir(ana, projectA);
    const dirB = await teamDir(ben, projectB);

    // A shared starting point.
    await fs.mkdir(path.dirname(path.join(dirA, key)), { recursive: true });
    await fs.writeFile(path.join(dirA, key), '# Naming\n\nUse camelCase.\n');
    await ana.call('team:sync-now', { project: projectA });
    await expect.poll(async () => {
      await ben.call('team:sync-now', { project: projectB });
      return fs.readFile(path.join(dirB, key), 'utf8').catch(() => null);
    }, { timeout: 10_000 }).toBe('# Naming\n\nUse camelCase.\n');

    // Both change it: Ana through the editor's save, Ben in another editor; Ana's reaches the server first.
    const fileA = rel(ana, path.join(dirA, key));
    const current = await ana.call('vault:read-file', { path: fileA });
    await ana.call('vault:write-file', { path: fileA, text: '# Naming\n\nUse camelCase, even for acronyms.\n', baseHash: current.hash });
    await expect.poll(async () => (await ana.call('team:sync-now', { project: projectA })).pending, { timeout: 10_000 }).toBe(0);
    await fs.writeFile(path.join(dirB, key), '# Naming\n\nUse snake_case in SQL.\n');

    await expect.poll(async () => (await ben.call('team:sync-now', { project: projectB })).conflicts, { timeout: 10_000 }).toEqual([key]);
    return { ana, ben, projectA, projectB, dirA, dirB };
  }

  it('keeps both edits of the same file as a conflict, shows the three texts, and pushes the merge', async () => {
    const key = 'style/naming.md';
    const { ana, ben, projectA, projectB, dirA, dirB } = await conflictOn(key, ['ana2', 'ben2']);
    // Nothing lost: Ben's text is still in place, the badge says conflict.
    expect(await fs.readFile(path.join(dirB, key), 'utf8')).toBe('# Naming\n\nUse snake_case in SQL.\n');
    const fileB = rel(ben, path.join(dirB, key));
    // The vault's list learns of team files from its watcher, which a loaded machine may delay.
    await expect.poll(async () => (await ben.call('vault:list-files', {})).find((f) => f.path === fileB)?.syncState, { timeout: 30_000 }).toBe('conflict');

    const view = await ben.call('team:read-conflict', { project: projectB, key });
    expect(view).toEqual({
      key,
      path: fileB,
      base: '# Naming\n\nUse camelCase.\n',
      mine: '# Naming\n\nUse snake_case in SQL.\n',
      theirs: '# Naming\n\nUse camelCase, even for acronyms.\n',
      // When theirs reached Ben's computer, and who Ben is (the author "keep both" names).
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      you: 'ben',
      // Who made the other change and when, as the server recorded it.
      theirsBy: expect.any(String),
      theirsAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect((await ben.fail('team:read-conflict', { project: projectB, key: 'nope.md' })).code).toBe('not_found');
    expect((await ben.fail('team:resolve-conflict', { project: projectB, key, keep: 'merged' })).code).toBe('invalid_request');

    const merged = '# Naming\n\nUse camelCase, even for acronyms; snake_case in SQL.\n';
    const after = await ben.call('team:resolve-conflict', { project: projectB, key, keep: 'merged', text: merged });
    expect(after.conflicts).toEqual([]);
    expect(await fs.readFile(path.join(dirB, key), 'utf8')).toBe(merged);

    // The resolution is pushed without another click; Ana's next sync brings it.
    await expect.poll(async () => {
      await ana.call('team:sync-now', { project: projectA });
      return fs.readFile(path.join(dirA, key), 'utf8');
    }, { timeout: 10_000 }).toBe(merged);
    const final = await ben.call('team:status', { project: projectB });
    expect(final).toMatchObject({ phase: 'synced', conflicts: [], pending: 0 });
  }, 60_000);

  it('lists the memory "keep both" made in the vault as soon as the choice is answered, not when the watcher sees it', async () => {
    const key = 'naming.md';
    const { ben, projectB, dirB } = await conflictOn(key, ['ana3', 'ben3']);
    await ben.call('team:resolve-conflict', { project: projectB, key, keep: 'both' });
    const copy = (await fs.readdir(dirB)).find((f) => f.startsWith('naming-ben-'));
    expect(copy).toBeDefined();
    const listed = (await ben.call('vault:list-files', {})).map((f) => f.path);
    expect(listed).toContain(rel(ben, path.join(dirB, copy!)));
  }, 60_000);

  it('rebuilds the session on a vault switch, reports a declined sign-in, and stops a waiting sign-in at shutdown', async () => {
    const ana = await startApp('ana3');
    const project = await gitProject();
    await ana.call('settings:set', { patch: { teamServerUrl: server.url } });
    await signIn(ana, project, 'ana');
    expect((await ana.call('team:sync-now', { project })).phase).toBe('synced');

    // The new vault has no server URL and no stored sign-in for this project's session.
    const other = await tempDir('strata-team-other-');
    await ana.call('vault:set-root', { root: other });
    const switched = await ana.call('team:status', { project });
    expect(switched).toMatchObject({ serverUrl: null, phase: 'disabled' });
    expect((await ana.fail('team:sync-now', { project })).code).toBe('unsupported');

    // A sign-in waiting for the browser ends with the app: its loopback listener stops answering.
    await ana.call('settings:set', { patch: { teamServerUrl: server.url } });
    const second = await startApp('ana3b');
    await second.call('settings:set', { patch: { teamServerUrl: server.url } });
    // A declined sign-in is a status with the reason, nothing stored.
    const declined = await second.call('team:sign-in', { project });
    const authorize = new URL(declined.signInUrl!);
    const back = new URL(authorize.searchParams.get('redirect_uri')!);
    back.searchParams.set('state', authorize.searchParams.get('state')!);
    back.searchParams.set('error', 'access_denied');
    await fetch(back);
    await expect.poll(async () => (await second.call('team:status', { project })).error).toMatch(/declined/);
    expect(await second.call('team:status', { project })).toMatchObject({ signedIn: false, signInUrl: null, phase: 'disabled' });
    expect(second.statuses.at(-1)?.error).toMatch(/declined/);

    const waiting = await second.call('team:sign-in', { project });
    const redirect = new URL(waiting.signInUrl!).searchParams.get('redirect_uri')!;
    expect((await fetch(`${redirect}?state=wrong&code=x`)).status).toBe(400);
    await second.services.close();
    apps.splice(apps.indexOf(second), 1);
    await expect.poll(() => fetch(redirect).then(() => 'answering', () => 'closed')).toBe('closed');
  }, 30_000);

  it('names the account, ignores the echo of its own pull, pushes what is pending at close, and signs out a sign-in revoked elsewhere', async () => {
    const ana = await startApp('ana4');
    const ben = await startApp('ben4');
    const projectA = await gitProject();
    const projectB = await gitProject();
    for (const app of [ana, ben]) {
      await app.call('settings:set', { patch: { teamServerUrl: server.url, memory: { teamSync: { pushDebounceMs: 200 } } } });
    }
    await signIn(ana, projectA, 'ana');
    await signIn(ben, projectB, 'ben');
    // GET /api/me names who the stored sign-in is.
    await expect.poll(async () => (await ana.call('team:status', { project: projectA })).account, { timeout: 10_000 }).toBe('ana');
    const dirA = await teamDir(ana, projectA);
    const dirB = await teamDir(ben, projectB);
    const pat = (await admin.createToken('ana', null)).token;
    const onServer = async () => {
      const got = await fetch(`${server.url}/api/team_memory?repo=${encodeURIComponent(REPO)}`, { headers: { authorization: `Bearer ${pat}` } });
      return got.status === 200 ? ((await got.json()) as { content: { entries: Record<string, string> } }).content.entries : {};
    };

    // A pull's own writes reach the watcher like any change, but leave nothing pending: no second sync.
    await fs.writeFile(path.join(dirA, 'echo.md'), 'from ana\n');
    await expect.poll(onServer, { timeout: 10_000 }).toMatchObject({ 'echo.md': 'from ana\n' });
    await ben.call('team:sync-now', { project: projectB });
    expect(await fs.readFile(path.join(dirB, 'echo.md'), 'utf8')).toBe('from ana\n');
    const runs = () => ben.statuses.filter((st) => st.phase === 'syncing' && st.progress?.total === 0).length;
    const before = runs();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(runs()).toBe(before);

    // Closing the app with a change still waiting for its push: the last push goes out before it ends.
    await fs.writeFile(path.join(dirA, 'late.md'), 'typed just before quitting\n');
    await ana.services.close();
    apps.splice(apps.indexOf(ana), 1);
    ana.log.assertNoErrors();
    expect((await onServer())['late.md']).toBe('typed just before quitting\n');

    // A file that gains a secret is reported (rule and line) without a click, and stays here.
    await fs.writeFile(path.join(dirB, 'keys.md'), `notes\ntoken ${canarySecret()}\n`);
    await expect
      .poll(async () => (await ben.call('team:status', { project: projectB })).blocked, { timeout: 10_000 })
      .toEqual([{ key: 'keys.md', path: rel(ben, path.join(dirB, 'keys.md')), rule: 'github-pat', line: 2, findings: [{ rule: 'github-pat', line: 2, column: 7 }] }]);
    expect((await onServer())['keys.md']).toBeUndefined();

    // Ben's sign-in is revoked from elsewhere (another device signs the same sign-in out, RFC 7009):
    // the stored tokens no longer count, and the app says so at the next sync instead of claiming signed in.
    const account = `team-server:${new URL(server.url).origin}`;
    const stored = JSON.parse((await ben.services.credentials.get(account))!) as { refreshToken: string };
    const revoked = await fetch(`${server.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: stored.refreshToken, token_type_hint: 'refresh_token', client_id: 'strata-desktop' }).toString(),
    });
    expect(revoked.status).toBe(200);
    await fs.writeFile(path.join(dirB, 'after-revoke.md'), 'still here\n');
    await expect.poll(async () => (await ben.call('team:status', { project: projectB })).signedIn, { timeout: 10_000 }).toBe(false);
    const out = await ben.call('team:status', { project: projectB });
    expect(out).toMatchObject({ signedIn: false, account: null, phase: 'disabled' });
    expect(out.error).toMatch(/sign in again/i);
    expect(await ben.services.credentials.get(account)).toBeNull();
    expect(await fs.readFile(path.join(dirB, 'after-revoke.md'), 'utf8')).toBe('still here\n');
  }, 60_000);
});
