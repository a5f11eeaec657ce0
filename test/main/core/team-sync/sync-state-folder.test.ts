import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTeamSync } from '../../../../main/core/team-sync/open-team-sync.js';
import { systemClock } from '../../../../main/core/ports.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

/** Opens the sync of a project whose repository comes from the teamRepo setting; no server is asked. */
async function open(vault: string, teamRepo: string) {
  return openTeamSync({
    vaultRoot: vault,
    projectDir: await tempDir('strata-state-folder-project-'),
    serverUrl: 'http://127.0.0.1:9',
    teamRepo,
    getToken: async () => null,
    clock: systemClock,
    logger: testLogger().logger,
  });
}

async function legacyState(vault: string, folder: string): Promise<string> {
  const dir = path.join(vault, '.strata', 'team-sync', folder);
  await fs.mkdir(path.join(dir, 'conflicts'), { recursive: true });
  await fs.writeFile(path.join(dir, 'state.json'), `{"from":"${folder}"}`);
  return dir;
}

describe('the sync state folder', () => {
  it('is <owner>/<name>, and the state of an earlier release (<owner>__<name>) moves there once', async () => {
    const vault = await tempDir('strata-state-folder-');
    const legacy = await legacyState(vault, 'acme__site');
    const opened = await open(vault, 'acme/site');
    expect(opened.stateDir).toBe(path.join(vault, '.strata', 'team-sync', 'acme', 'site'));
    expect(await fs.readFile(path.join(opened.stateDir, 'state.json'), 'utf8')).toBe('{"from":"acme__site"}');
    await expect(fs.stat(legacy)).rejects.toThrow();
    // A second open finds it in place and moves nothing.
    await legacyState(vault, 'acme__site');
    expect((await open(vault, 'acme/site')).stateDir).toBe(opened.stateDir);
    expect(await fs.readFile(path.join(opened.stateDir, 'state.json'), 'utf8')).toBe('{"from":"acme__site"}');
  });

  it('leaves an ambiguous old folder alone: a__b/c and a/b__c both wrote a__b__c', async () => {
    const vault = await tempDir('strata-state-folder-');
    const legacy = await legacyState(vault, 'a__b__c');
    for (const repo of ['a/b__c', 'a__b/c']) {
      const opened = await open(vault, repo);
      expect(opened.stateDir).toBe(path.join(vault, '.strata', 'team-sync', ...repo.split('/')));
      await expect(fs.stat(path.join(opened.stateDir, 'state.json'))).rejects.toThrow();
    }
    expect(await fs.readFile(path.join(legacy, 'state.json'), 'utf8')).toBe('{"from":"a__b__c"}');
  });
});
