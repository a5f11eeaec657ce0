import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTeamRepo, parseGitRemotes, repoFromRemoteUrl } from '../../../../main/core/team-sync/repo-detect.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('team repository detection', () => {
  it.each([
    ['git@github.com:acme/widgets.git', 'acme/widgets'],
    ['git@github.com:acme/widgets', 'acme/widgets'],
    ['ssh://git@github.com/acme/widgets.git', 'acme/widgets'],
    ['ssh://git@git.example.com:2222/group/sub/widgets', 'sub/widgets'],
    ['https://github.com/acme/widgets.git', 'acme/widgets'],
    ['https://user:secret@gitlab.example.com/acme/widgets/', 'acme/widgets'],
    ['file:///srv/git/acme/widgets.git', 'acme/widgets'],
  ])('reads %s as %s', (url, repo) => {
    expect(repoFromRemoteUrl(url)).toBe(repo);
  });

  it('refuses a URL without owner and name', () => {
    expect(repoFromRemoteUrl('https://github.com/widgets')).toBeNull();
    expect(repoFromRemoteUrl('git@host:x y/z')).toBeNull();
  });

  it('lists remotes in file order', () => {
    const config = '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@github.com:up/one.git\n\tfetch = +refs/heads/*\n[remote "origin"]\n\turl = https://github.com/me/two\n';
    expect(parseGitRemotes(config)).toEqual([
      { name: 'upstream', url: 'git@github.com:up/one.git' },
      { name: 'origin', url: 'https://github.com/me/two' },
    ]);
  });

  it('prefers origin, else the first remote, from a folder inside the repository', async () => {
    const repo = await tempDir();
    await fs.mkdir(path.join(repo, '.git'));
    await fs.mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
    await fs.writeFile(path.join(repo, '.git', 'config'), '[remote "upstream"]\n\turl = git@github.com:up/one.git\n[remote "origin"]\n\turl = git@github.com:me/two.git\n');
    expect(await detectTeamRepo(path.join(repo, 'src', 'deep'))).toEqual({ ok: true, repo: 'me/two', source: 'remote', remote: 'origin' });
    await fs.writeFile(path.join(repo, '.git', 'config'), '[remote "upstream"]\n\turl = git@github.com:up/one.git\n');
    expect(await detectTeamRepo(repo)).toMatchObject({ ok: true, repo: 'up/one', remote: 'upstream' });
  });

  it("reads a worktree's remote from the main repository's config", async () => {
    const main = await tempDir();
    await fs.mkdir(path.join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    await fs.writeFile(path.join(main, '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/acme/mono.git\n');
    await fs.writeFile(path.join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    const wt = await tempDir();
    await fs.writeFile(path.join(wt, '.git'), `gitdir: ${path.join(main, '.git', 'worktrees', 'wt')}\n`);
    expect(await detectTeamRepo(wt)).toMatchObject({ ok: true, repo: 'acme/mono' });
  });

  it('uses the teamRepo setting without a git repository, and says how to set one when there is nothing', async () => {
    const plain = await tempDir();
    expect(await detectTeamRepo(plain, 'acme/set')).toEqual({ ok: true, repo: 'acme/set', source: 'setting' });
    const none = await detectTeamRepo(plain);
    expect(none.ok).toBe(false);
    expect(none.ok ? '' : none.error.message).toMatch(/set Repository \(owner\/name\) under Settings › This project \(the teamRepo setting\), or give the git repository a remote/);
  });

  it('never repeats credentials from a remote URL in its error', async () => {
    const repo = await tempDir();
    await fs.mkdir(path.join(repo, '.git'));
    await fs.writeFile(path.join(repo, '.git', 'config'), '[remote "origin"]\n\turl = https://user:hunter2@example.com/only\n');
    const result = await detectTeamRepo(repo);
    expect(result.ok ? '' : result.error.message).not.toContain('hunter2');
  });
});
