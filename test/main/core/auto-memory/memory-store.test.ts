import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { MemoryStore } from '../../../../main/core/auto-memory/memory-store.js';
import { parseMemoryFile } from '../../../../common/memory-file/index.js';
import { findGitRoot, memoryDirFor } from '../../../../main/core/auto-memory/memory-paths.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { tempDir } from '../../../support/temp-dir.js';

async function store() {
  const vault = await tempDir('strata-store-');
  const dir = path.join(vault, 'projects', 'p', 'memory');
  const s = new MemoryStore(dir, defaultMemoryConfig.autoMemory);
  await s.ensure();
  return { vault, dir, s };
}

describe('parseMemoryFile', () => {
  it('parses name, description and a known type', () => {
    const m = parseMemoryFile('---\nname: Tabs\ndescription: prefers tabs over spaces\ntype: feedback\n---\nUse tabs.\n');
    expect(m).toMatchObject({ name: 'Tabs', description: 'prefers tabs over spaces', type: 'feedback', body: 'Use tabs.\n', flags: [] });
  });

  it('keeps an unknown type and flags it untyped', () => {
    expect(parseMemoryFile('---\nname: X\ndescription: d\ntype: idea\n---\nb')).toMatchObject({ type: 'untyped', rawType: 'idea', flags: ['untyped'] });
  });

  it('keeps malformed frontmatter and no frontmatter, flagged', () => {
    const bad = parseMemoryFile('---\nname: a\nname: b\n---\nbody');
    expect(bad.flags).toEqual(['malformed-frontmatter']);
    expect(bad.frontmatterError).toBeTruthy();
    expect(bad.body).toBe('body');
    expect(parseMemoryFile('plain note').flags).toEqual(['no-frontmatter']);
  });
});

describe('memory folder location', () => {
  it('gives every worktree of one repository the memory folder of its main checkout', async () => {
    const base = await tempDir('strata-git-');
    const repo = path.join(base, 'repo');
    const wt = path.join(base, 'wt');
    await fs.mkdir(path.join(repo, '.git', 'worktrees', 'wt'), { recursive: true });
    await fs.writeFile(path.join(repo, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    await fs.mkdir(path.join(wt, 'src'), { recursive: true });
    await fs.writeFile(path.join(wt, '.git'), `gitdir: ${path.join(repo, '.git', 'worktrees', 'wt')}\n`);
    await fs.mkdir(path.join(repo, 'pkg'));
    expect(await findGitRoot(path.join(wt, 'src'))).toBe(repo);
    expect(await memoryDirFor('/vault', path.join(repo, 'pkg'))).toBe(path.join('/vault', 'projects', slug(repo), 'memory'));
    expect(await memoryDirFor('/vault', path.join(wt, 'src'))).toBe(await memoryDirFor('/vault', repo));
  });

  it('uses the opened folder when there is no repository', async () => {
    const dir = await tempDir('strata-nogit-');
    expect(await memoryDirFor('/v', dir)).toBe(path.join('/v', 'projects', slug(dir), 'memory'));
  });
});

describe('MemoryStore', () => {
  it('lists topic files with flags and reports broken pointers and files missing from the index', async () => {
    const { dir, s } = await store();
    await fs.writeFile(path.join(dir, 'a.md'), '---\nname: A\ndescription: a\ntype: user\n---\nA');
    await fs.writeFile(path.join(dir, 'b.md'), '---\ntype: user\ntype: project\n---\nB');
    await fs.writeFile(path.join(dir, 'MEMORY.md'), '- [A](a.md) — a\n- [C](c.md) — gone\n');
    const files = await s.list();
    expect(files.map((f) => f.relPath).sort()).toEqual(['a.md', 'b.md']);
    expect(files.find((f) => f.relPath === 'b.md')!.flags).toEqual(['malformed-frontmatter']);
    const report = await s.readIndex();
    expect(report.entries.map((e) => [e.target, e.broken])).toEqual([['a.md', false], ['c.md', true]]);
    expect(report.missing).toEqual(['b.md']);
    expect(report.headroom.lines).toBe(2);
  });

  it('creates a memory with its index line, renames it updating the line, deletes it removing the line', async () => {
    const { dir, s } = await store();
    await fs.writeFile(path.join(dir, 'MEMORY.md'), '- [Other](other.md) — keep me\n');
    await s.create({ file: 'feedback_tabs.md', name: 'Tabs', description: 'prefers tabs', type: 'feedback', body: 'Use tabs.' });
    expect(parseMemoryFile(await fs.readFile(path.join(dir, 'feedback_tabs.md'), 'utf8'))).toMatchObject({ name: 'Tabs', type: 'feedback', flags: [] });
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Other](other.md) — keep me\n- [Tabs](feedback_tabs.md) — prefers tabs\n');
    await s.rename('feedback_tabs.md', 'feedback_indent.md');
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Other](other.md) — keep me\n- [Tabs](feedback_indent.md) — prefers tabs\n');
    await s.delete('feedback_indent.md');
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toBe('- [Other](other.md) — keep me\n');
    expect(await fs.readdir(dir)).toEqual(['MEMORY.md']);
  });

  it('refuses a user action that would leave the folder', async () => {
    const { s } = await store();
    await expect(s.create({ file: '../escape.md', name: 'x', description: 'x', type: 'user', body: 'x' })).rejects.toThrow(/\.\./);
  });

  it('loads the index for the prompt truncated with a warning', async () => {
    const { dir, s } = await store();
    await fs.writeFile(path.join(dir, 'MEMORY.md'), Array.from({ length: 201 }, (_, i) => `- [M](m${i}.md) — h`).join('\n'));
    const loaded = await s.loadIndexForPrompt();
    expect(loaded.truncated).toBe(true);
    expect(loaded.content).toContain('> WARNING: MEMORY.md is 201 lines (limit: 200)');
  });
});
