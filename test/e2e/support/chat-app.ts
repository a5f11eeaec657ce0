import { promises as fs } from 'node:fs';
import { projectSettingsSchema } from '../../../common/domain/settings.js';
import type { Services } from '../../../main/core/services.js';

/** The API key the e2e app and the bench give the services through `ANTHROPIC_API_KEY`. */
export const TEST_API_KEY = 'sk-ant-e2e-test';

/**
 * Points the app's vault at the fake Messages API and opens `project` (created if missing), with
 * background extraction off so the scripted queue answers only the main agent. Free of vitest, so
 * the `chat-first-token` bench shares it.
 */
export async function prepareChat(services: Services, options: { project: string; baseUrl: string; model?: string }): Promise<void> {
  const vault = services.vault();
  await vault.ready;
  await fs.mkdir(options.project, { recursive: true });
  const project = (await vault.projects.open(options.project)).path;
  const settings = vault.settings.get();
  const current = settings.projects[project] ?? projectSettingsSchema.parse({});
  await vault.settings.update({
    baseUrl: options.baseUrl,
    model: options.model ?? 'claude-test',
    projects: { ...settings.projects, [project]: { ...current, extraction: false } },
  });
}

/** The memory folder of `project` in the app's vault, where the agent writes without asking. */
export async function memoryDirOf(services: Services, project: string): Promise<string> {
  return (await services.vault().sessions.paths(project)).memoryDir;
}
