import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { tempDir } from '../../../support/temp-dir.js';

async function layout() {
  const root = await tempDir();
  const vault = path.join(root, 'vault');
  const repo = path.join(root, 'repo');
  await fs.mkdir(path.join(repo, '.git', 'worktrees', 'b'), { recursive: true });
  await fs.mkdir(path.join(repo, 'pkg'), { recursive: true });
  await fs.writeFile(path.join(repo, '.git', 'worktrees', 'b', 'commondir'), '../..\n');
  const worktree = path.join(root, 'b');
  await fs.mkdir(worktree);
  await fs.writeFile(path.join(worktree, '.git'), `gitdir: ${path.join(repo, '.git', 'worktrees', 'b')}\n`);
  const plain = path.join(root, 'notes');
  await fs.mkdir(plain);
  return { vault, repo, worktree, plain };
}

describe('ProjectPaths (docs/memory.md#where-things-live)', () => {
  it('keys transcripts and session notes by the opened folder', async () => {
    const { vault, repo } = await layout();
    const p = await ProjectPaths.resolve(vault, path.join(repo, 'pkg'));
    const dir = path.join(vault, 'projects', slug(path.join(repo, 'pkg')));
    expect(p.transcriptsDir).toBe(dir);
    expect(p.transcriptFile('abc-123')).toBe(path.join(dir, 'abc-123.jsonl'));
    expect(p.sessionNotesFile('abc-123')).toBe(path.join(dir, 'abc-123', 'session-memory', 'summary.md'));
  });

  it('keys memory and team memory by the git root, shared by a subfolder and a worktree', async () => {
    const { vault, repo, worktree } = await layout();
    const memory = path.join(vault, 'projects', slug(repo), 'memory');
    const sub = await ProjectPaths.resolve(vault, path.join(repo, 'pkg'));
    const wt = await ProjectPaths.resolve(vault, worktree);
    expect(sub.memoryDir).toBe(memory);
    expect(wt.memoryDir).toBe(memory);
    expect(wt.teamMemoryDir).toBe(path.join(memory, 'team'));
    expect(wt.transcriptsDir).toBe(path.join(vault, 'projects', slug(worktree)));
  });

  it('keys memory by the opened folder when it is not in a repository', async () => {
    const { vault, plain } = await layout();
    const p = await ProjectPaths.resolve(vault, plain);
    expect(p.gitRoot).toBeNull();
    expect(p.memoryDir).toBe(path.join(vault, 'projects', slug(plain), 'memory'));
  });

  it('refuses a session id that is not one safe path segment', async () => {
    const { vault, plain } = await layout();
    const p = await ProjectPaths.resolve(vault, plain);
    expect(() => p.transcriptFile('../escape')).toThrow(/invalid session id/);
    expect(() => p.sessionNotesFile('a/b')).toThrow(/invalid session id/);
  });
});
