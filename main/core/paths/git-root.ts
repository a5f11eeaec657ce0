import { promises as fs } from 'node:fs';
import path from 'node:path';

async function readText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The main repository root for a worktree's git dir `<main>/.git/worktrees/<name>`: its `commondir`
 * file names the shared `.git` (git's own rule); without one, the `…/.git/worktrees/<name>` shape is
 * recognised. Anything else (a submodule's `.git/modules/<name>`) is its own repository: null.
 */
async function mainRootOfWorktree(gitDir: string): Promise<string | null> {
  const common = await readText(path.join(gitDir, 'commondir'));
  if (common !== null && common.trim() !== '') {
    const commonDir = path.resolve(gitDir, common.trim());
    const real = await fs.realpath(commonDir).catch(() => commonDir);
    return path.basename(real) === '.git' ? path.dirname(real) : null;
  }
  const parent = path.dirname(gitDir);
  if (path.basename(parent) === 'worktrees' && path.basename(path.dirname(parent)) === '.git') {
    return path.dirname(path.dirname(parent));
  }
  return null;
}

/**
 * docs/memory.md#where-things-live: the git root of a folder, found by walking up to `.git` without a git binary. A `.git`
 * folder marks the root; a `.git` file (`gitdir: …`) of a linked worktree maps to the main
 * repository's root, so every worktree of one repository shares one memory folder. Null outside git.
 */
export async function findGitRoot(folder: string): Promise<string | null> {
  const start = path.resolve(folder);
  let dir = await fs.realpath(start).catch(() => start);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const stat = await fs.stat(dotGit).catch(() => null);
    if (stat?.isDirectory()) return dir;
    if (stat?.isFile()) {
      const match = /^gitdir:\s*(.+?)\s*$/m.exec((await readText(dotGit)) ?? '');
      if (!match) return dir;
      const gitDir = path.resolve(dir, match[1]!);
      return (await mainRootOfWorktree(gitDir)) ?? dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
