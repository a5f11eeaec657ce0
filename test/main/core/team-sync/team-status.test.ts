import { describe, expect, it } from 'vitest';
import { toConflictView, toTeamStatus } from '../../../../main/core/team-sync/team-status.js';

const ctx = {
  project: '/work/app',
  vaultRoot: '/vault',
  teamDir: '/vault/projects/-work-app/memory/team',
  repo: 'acme/app',
  repoProblem: null,
  serverUrl: 'https://team.example',
  signedIn: true,
  account: null,
  enabled: true,
};

describe('team status for the renderer', () => {
  it('maps blocked files and refused names to vault-relative paths with every finding and reason, and errors to their message', () => {
    const status = toTeamStatus(ctx, {
      phase: 'offline',
      progress: null,
      pending: 2,
      conflicts: ['a.md'],
      blocked: [{ key: 'notes/keys.md', rule: 'github-pat', line: 3, findings: [{ rule: 'github-pat', line: 3 }, { rule: 'aws-access-key', line: 9 }] }],
      tooLarge: [],
      invalidNames: [{ key: 'bad\\name.md', reason: 'a backslash is not allowed' }],
      failed: [{ key: 'long.md', step: 'pull', reason: 'its name is longer than this disk allows', advice: 'ask the teammate who added it to give it a shorter name' }],
      lastSyncAt: '2026-12-02T18:00:00.000Z',
      error: { code: 'offline', message: 'the team server cannot be reached' },
    });
    expect(status).toMatchObject({
      phase: 'offline',
      pending: 2,
      conflicts: ['a.md'],
      blocked: [
        {
          key: 'notes/keys.md',
          path: 'projects/-work-app/memory/team/notes/keys.md',
          rule: 'github-pat',
          line: 3,
          findings: [
            { rule: 'github-pat', line: 3 },
            { rule: 'aws-access-key', line: 9 },
          ],
        },
      ],
      invalidNames: [{ key: 'bad\\name.md', path: 'projects/-work-app/memory/team/bad\\name.md', reason: 'a backslash is not allowed' }],
      error: 'the team server cannot be reached',
    });
  });

  it('shows sync as disabled when signed out, switched off, or without a repository', () => {
    expect(toTeamStatus({ ...ctx, signedIn: false }, null).phase).toBe('disabled');
    expect(toTeamStatus({ ...ctx, enabled: false }, null).phase).toBe('disabled');
    expect(toTeamStatus({ ...ctx, repo: null, repoProblem: 'add a remote' }, null)).toMatchObject({ phase: 'disabled', repoProblem: 'add a remote' });
  });

  it('gives the conflict view the local file path', () => {
    const receivedAt = '2026-12-04T10:00:00.000Z';
    expect(toConflictView({ ...ctx, account: 'dana' }, { key: 'a.md', base: 'b', mine: 'm', theirs: 't', receivedAt, theirsBy: 'bob', theirsAt: '2026-12-04T09:00:00.000Z' })).toEqual({
      key: 'a.md',
      path: 'projects/-work-app/memory/team/a.md',
      base: 'b',
      mine: 'm',
      theirsBy: 'bob',
      theirsAt: '2026-12-04T09:00:00.000Z',
      theirs: 't',
      receivedAt,
      you: 'dana',
    });
  });
});
