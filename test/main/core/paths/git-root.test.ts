import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findGitRoot } from '../../../../main/core/paths/git-root.js';
import { tempDir } from '../../../support/temp-dir.js';

/** A repository laid out as `git init` + `git worktree add` leave it, without running git. */
async function repoWithWorktree(root: string) {
  const repo = path.join(root, 'repo');
  await fs.mkdir(path.join(repo, '.git', 'worktrees', 'feature'), { recursive: true });
  await fs.mkdir(path.join(repo, 'src', 'deep'), { recursive: true });
  const worktree = path.join(root, 'wt', 'feature');
  await fs.mkdir(path.join(worktree, 'lib'), { recursive: true });
  await fs.writeFile(path.join(worktree, '.git'), `gitdir: ${path.join(repo, '.git', 'worktrees', 'feature')}\n`);
  await fs.writeFile(path.join(repo, '.git', 'worktrees', 'feature', 'commondir'), '../..\n');
  await fs.writeFile(path.join(repo, '.git', 'worktrees', 'feature', 'gitdir'), `${path.join(worktree, '.git')}\n`);
  return { repo, worktree };
}

describe('findGitRoot', () => {
  it('finds the folder holding a .git folder, from the root or any folder below it', async () => {
    const { repo } = await repoWithWorktree(await tempDir());
    expect(await findGitRoot(repo)).toBe(repo);
    expect(await findGitRoot(path.join(repo, 'src', 'deep'))).toBe(repo);
  });

  it('maps a linked worktree to the main repository root through its .git file', async () => {
    const { repo, worktree } = await repoWithWorktree(await tempDir());
    expect(await findGitRoot(worktree)).toBe(repo);
    expect(await findGitRoot(path.join(worktree, 'lib'))).toBe(repo);
  });

  it('recognises a relative gitdir and a worktree without a commondir file', async () => {
    const root = await tempDir();
    const repo = path.join(root, 'main');
    await fs.mkdir(path.join(repo, '.git', 'worktrees', 'w1'), { recursive: true });
    const worktree = path.join(root, 'w1');
    await fs.mkdir(worktree);
    await fs.writeFile(path.join(worktree, '.git'), 'gitdir: ../main/.git/worktrees/w1\n');
    expect(await findGitRoot(worktree)).toBe(repo);
  });

  it('treats a submodule (gitdir under .git/modules) as its own repository', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'super', '.git', 'modules', 'sub'), { recursive: true });
    const sub = path.join(root, 'super', 'sub');
    await fs.mkdir(sub);
    await fs.writeFile(path.join(sub, '.git'), 'gitdir: ../.git/modules/sub\n');
    expect(await findGitRoot(sub)).toBe(sub);
  });

  it('returns null for a folder outside any repository', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'plain'));
    expect(await findGitRoot(path.join(root, 'plain'))).toBeNull();
  });

  it('answers with real paths when the folder is reached through a symlink', async () => {
    const root = await tempDir();
    const { repo } = await repoWithWorktree(root);
    await fs.symlink(path.join(repo, 'src'), path.join(root, 'link'));
    expect(await findGitRoot(path.join(root, 'link'))).toBe(repo);
  });
});
