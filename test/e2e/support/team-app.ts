import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../../server/index.js';
import type { Logger } from '../../../common/ports.js';
import { tempDir } from '../../support/temp-dir.js';
import { startApp, type TestApp } from './app.js';

/**
 * A team server on SQLite in a temp folder, no rate limit, where each of `members` (name → password, or
 * null for one who signs in only with a token) belongs to `repo`. The admin stays open for more tokens.
 */
export async function startTeam(repo: string, members: Record<string, string | null>, logger: Logger): Promise<{ server: TeamServer; admin: TeamAdmin }> {
  const db = `sqlite:${path.join(await tempDir('strata-e2e-team-server-'), 'team.db')}`;
  const admin = await TeamAdmin.open(db);
  for (const [name, password] of Object.entries(members)) {
    await admin.addUser(name, password);
    await admin.grant(name, repo);
  }
  const server = await startTeamServer({ db, port: 0, logger, limits: { rateLimitPerMinute: 0 } });
  return { server, admin };
}

/** The app on a fresh vault with the project folder `site` (no git remote) opened. */
export async function startAppWithSite(): Promise<{ app: TestApp; project: string }> {
  const appData = await tempDir('strata-e2e-dana-');
  const project = path.join(appData, 'site');
  await fs.mkdir(project);
  const app = await startApp(appData);
  await app.services.vault().ready;
  await app.services.vault().projects.open(project);
  return { app, project };
}
