import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { TeamStatus } from '../../../../common/domain/team.js';
import type { InvokeChannel, RequestOf, ResponseOf } from '../../../../common/ipc/contract.js';
import type { CredentialStore } from '../../../../main/core/ports.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { ProjectPaths } from '../../../../main/core/paths/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { signInAsBrowser } from './team-browser.js';

/**
 * Team memory through the app's own IPC handlers: apps, each with its own vault and credential store,
 * against the real team server on loopback. Sign-in plays the browser tab the app opens.
 */
export const REPO = 'acme/notes';
export const PASSWORD = 'correct horse battery';

export interface App {
  services: Services;
  log: ReturnType<typeof testLogger>;
  statuses: TeamStatus[];
  call<C extends InvokeChannel>(channel: C, payload: RequestOf<C>): Promise<ResponseOf<C>>;
  fail<C extends InvokeChannel>(channel: C, payload: RequestOf<C>): Promise<{ code: string; message: string }>;
}

export const apps: App[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    await app.services.close();
    app.log.assertNoErrors();
  }
});

/**
 * Starts the app's services. `appData` and `credentials` from an earlier app make this a restart of
 * it: same vault, settings, project list and stored sign-in.
 */
export async function startApp(name: string, restart: { appData?: string; credentials?: CredentialStore } = {}): Promise<App> {
  const appData = restart.appData ?? (await tempDir(`strata-team-${name}-`));
  const log = testLogger();
  const statuses: TeamStatus[] = [];
  const services = await createServices({
    appDataDir: appData,
    vaultRoot: path.join(appData, 'vault'),
    shell: 'host',
    logger: log.logger,
    env: {},
    credentials: restart.credentials,
  });
  // Subscribed before anything else runs, so a session opened at start is seen from its first status.
  services.events.subscribe((channel, payload) => {
    if (channel === 'team:did-change-status') statuses.push(payload as TeamStatus);
  });
  await services.vault().ready;
  await services.vault().files.whenWatching();
  const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
  const app: App = {
    services,
    log,
    statuses,
    async call(channel, payload) {
      const result = await dispatch(channel, payload);
      if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`);
      return result.value as never;
    },
    async fail(channel, payload) {
      const result = await dispatch(channel, payload);
      if (result.ok) throw new Error(`${channel} succeeded`);
      return result.error;
    },
  };
  apps.push(app);
  return app;
}

/** Quits an app before the test ends; its log must hold no errors. */
export async function stopApp(app: App): Promise<void> {
  apps.splice(apps.indexOf(app), 1);
  await app.services.close();
  app.log.assertNoErrors();
}

/** A project folder whose repository comes from its git remote (ssh form, `.git` stripped). */
export async function gitProject(): Promise<string> {
  const dir = await tempDir('strata-team-git-');
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', `git@github.com:${REPO}.git`]);
  return dir;
}

export async function signIn(app: App, project: string, user: string): Promise<void> {
  const started = await app.call('team:sign-in', { project });
  expect(started.signedIn).toBe(false);
  expect(started.signInUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?/);
  const authorize = new URL(started.signInUrl!);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(await signInAsBrowser(started.signInUrl!, user, PASSWORD)).toMatch(/close this tab/);
  await expect.poll(async () => (await app.call('team:status', { project })).signedIn, { timeout: 10_000 }).toBe(true);
}

export async function teamDir(app: App, project: string): Promise<string> {
  return (await ProjectPaths.resolve(app.services.vault().root, project)).teamMemoryDir;
}

export const rel = (app: App, file: string) => path.relative(app.services.vault().root, file).split(path.sep).join('/');
