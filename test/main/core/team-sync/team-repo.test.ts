import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServices } from '../../../../main/core/services.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { detectTeamRepo } from '../../../../main/core/team-sync/repo-detect.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

/** docs/sync-protocol.md: "`teamRepo` where the git remote gives none". */
async function gitRepo(...remotes: [string, string][]): Promise<string> {
  const dir = await tempDir('strata-team-repo-');
  execFileSync('git', ['init', '-q', dir]);
  for (const [name, url] of remotes) execFileSync('git', ['-C', dir, 'remote', 'add', name, url]);
  return dir;
}

describe('team repository precedence', () => {
  it('takes the git remote over the teamRepo setting', async () => {
    const dir = await gitRepo(['upstream', 'https://github.com/up/first.git'], ['origin', 'git@github.com:acme/widgets.git']);
    expect(await detectTeamRepo(dir, 'acme/setting')).toEqual({ ok: true, repo: 'acme/widgets', source: 'remote', remote: 'origin' });
  });

  it('uses the setting when the git repository has no remote, or the folder is no git repository', async () => {
    expect(await detectTeamRepo(await gitRepo(), 'acme/setting')).toEqual({ ok: true, repo: 'acme/setting', source: 'setting' });
    expect(await detectTeamRepo(await tempDir(), 'acme/setting')).toEqual({ ok: true, repo: 'acme/setting', source: 'setting' });
  });

  it('uses the setting when the remote names no owner/name', async () => {
    const dir = await gitRepo(['origin', 'https://example.com/only']);
    expect(await detectTeamRepo(dir, 'acme/setting')).toMatchObject({ ok: true, repo: 'acme/setting' });
  });

  it('says how to set one when there is neither', async () => {
    const none = await detectTeamRepo(await gitRepo(), null);
    expect(none.ok ? '' : none.error.message).toMatch(/no remote: set Repository \(owner\/name\) under Settings › This project \(the teamRepo setting\), or give the git repository a remote such as git@github\.com:owner\/name\.git/);
    const bad = await detectTeamRepo(await tempDir(), 'not a repo');
    expect(bad.ok ? '' : bad.error.message).toMatch(/teamRepo setting "not a repo" is not owner\/name/);
  });

  it('is what the app shows: team:status names the remote even with teamRepo set', async () => {
    const appData = await tempDir('strata-team-repo-app-');
    const log = testLogger();
    const services = await createServices({ appDataDir: appData, vaultRoot: path.join(appData, 'vault'), shell: 'host', logger: log.logger, env: {} });
    try {
      const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
      const withRemote = await gitRepo(['origin', 'git@github.com:acme/widgets.git']);
      const plain = await tempDir('strata-team-repo-plain-');
      const own = { autoMemory: true, extraction: true, teamSync: true, reviewMode: false, teamServerUrl: null, teamRepo: 'acme/setting' };
      expect((await dispatch('settings:set', { patch: { projects: { [withRemote]: own, [plain]: own } } })).ok).toBe(true);
      const status = async (project: string) => {
        const result = await dispatch('team:status', { project });
        if (!result.ok) throw new Error(result.error.message);
        return result.value;
      };
      expect(await status(withRemote)).toMatchObject({ repo: 'acme/widgets', repoProblem: null });
      expect(await status(plain)).toMatchObject({ repo: 'acme/setting', repoProblem: null });
    } finally {
      await services.close();
    }
    log.assertNoErrors();
  });
});
