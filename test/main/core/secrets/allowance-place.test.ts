import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SecretAllowanceView } from '../../../../common/domain/secrets.js';
import { slug } from '../../../../common/paths/slug.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

/**
 * Settings' "Not a secret" list names each place as the user knows it — the memory's name and its
 * project — through the real IPC dispatcher and vault; the recorded path is kept only for a tooltip.
 */
let services: Services | null = null;
afterEach(async () => {
  await services?.close();
  services = null;
});

describe('where a "Not a secret" entry was marked', () => {
  it('is named by the memory and its project, not by the vault path', async () => {
    const vault = await tempDir('strata-place-vault-');
    const project = path.join(await tempDir('strata-place-home-'), 'lighthouse');
    await fs.mkdir(project);
    const memory = path.join(vault, 'projects', slug(await fs.realpath(project)), 'memory');
    await fs.mkdir(path.join(memory, 'team'), { recursive: true });
    await fs.writeFile(path.join(memory, 'project_ci.md'), '---\nname: Deploy notes\ndescription: how CI deploys\ntype: project\n---\nThe pipeline deploys on tags.\n');
    const log = testLogger();
    services = await createServices({ appDataDir: await tempDir('strata-place-app-'), vaultRoot: vault, shell: 'cli', watch: false, logger: log.logger });
    const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
    expect((await dispatch('project:open', { path: project })).ok).toBe(true);

    const mark = (where: string, n: number) => dispatch('secrets:allow', { rule: 'github-pat', fingerprint: String(n).repeat(64), where });
    await mark(`memory write: ${path.join(memory, 'project_ci.md')}`, 1);
    // A refused write usually left no file: the name is read from the file name.
    await mark(`memory write: ${path.join(memory, 'user_github_token.md')}`, 2);
    await mark(`team push: ${path.relative(vault, path.join(memory, 'team', 'reference_release-keys.md')).split(path.sep).join('/')}`, 3);
    await mark('memory import: feedback_tabs.md', 4);
    await mark('earlier', 5);

    const listed = await dispatch('secrets:list-allowances', {});
    if (!listed.ok) throw new Error(listed.error.message);
    expect((listed.value as SecretAllowanceView[]).map((a) => a.place)).toEqual([
      { action: 'memory write', memory: 'Deploy notes', project: 'lighthouse', path: path.join(memory, 'project_ci.md') },
      { action: 'memory write', memory: 'github token', project: 'lighthouse', path: path.join(memory, 'user_github_token.md') },
      { action: 'team push', memory: 'release keys', project: 'lighthouse', path: expect.stringMatching(/^projects\/.+\/memory\/team\/reference_release-keys\.md$/) },
      { action: 'memory import', memory: 'tabs', project: null, path: 'feedback_tabs.md' },
      null,
    ]);
    log.assertNoErrors();
  });
});
