import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importClaudeCode } from '../../../../main/core/transcripts/claude-code-import.js';
import { tempDir } from '../../../support/temp-dir.js';

const SLUG = '-home-u-proj';

async function write(file: string, text: string, mtime?: Date) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  if (mtime) await fs.utimes(file, mtime, mtime);
}

/** A `~/.claude` as Claude Code leaves it: transcripts, session folders, memory, and unrelated files. */
async function claudeHome() {
  const home = await tempDir('strata-claude-');
  const p = path.join(home, 'projects', SLUG);
  await write(path.join(p, 'a.jsonl'), '{"type":"user"}\n');
  await write(path.join(p, 'b.jsonl'), '{"type":"assistant"}\n');
  await write(path.join(p, 'a', 'session-memory', 'summary.md'), '# notes\n');
  await write(path.join(p, 'a', 'subagents', 'agent-a1b2.jsonl'), '{"type":"user","isSidechain":true}\n');
  await write(path.join(p, 'a', 'subagents', 'agent-a1b2.meta.json'), '{"agentType":"Explore"}');
  await write(path.join(p, 'a', 'subagents', 'workflows', 'agent-c3.jsonl'), '{"type":"assistant","isSidechain":true}\n');
  await write(path.join(p, 'a', 'subagents', 'notes.txt'), 'not a transcript');
  await write(path.join(p, 'memory', 'MEMORY.md'), '- [Role](user_role.md) — who\n');
  await write(path.join(p, 'memory', 'user_role.md'), '---\nname: role\n---\nbody\n');
  await write(path.join(p, 'memory', 'team', 'MEMORY.md'), '- [T](t.md) — team\n');
  await write(path.join(home, 'projects', '-other', 'c.jsonl'), '{"type":"user"}\n');
  await write(path.join(home, 'settings.json'), '{}');
  await write(path.join(home, 'projects', 'bad name!', 'x.jsonl'), '{}\n');
  return home;
}

describe('importClaudeCode', () => {
  it('copies transcripts and memory folders unchanged into the same layout, and nothing else', async () => {
    const from = await claudeHome();
    const vault = await tempDir();
    const counts = await importClaudeCode({ from, vaultRoot: vault });
    expect(counts).toEqual({ projects: 2, transcripts: 5, memoryFiles: 3, skipped: 0 });
    const p = path.join(vault, 'projects', SLUG);
    expect(await fs.readFile(path.join(p, 'a', 'subagents', 'agent-a1b2.jsonl'), 'utf8')).toContain('isSidechain');
    expect(await fs.readFile(path.join(p, 'a', 'subagents', 'agent-a1b2.meta.json'), 'utf8')).toContain('Explore');
    expect(await fs.readFile(path.join(p, 'a', 'subagents', 'workflows', 'agent-c3.jsonl'), 'utf8')).toContain('isSidechain');
    await expect(fs.stat(path.join(p, 'a', 'subagents', 'notes.txt'))).rejects.toThrow();
    expect(await fs.readFile(path.join(p, 'a.jsonl'), 'utf8')).toBe('{"type":"user"}\n');
    expect(await fs.readFile(path.join(p, 'memory', 'user_role.md'), 'utf8')).toBe('---\nname: role\n---\nbody\n');
    expect(await fs.readFile(path.join(p, 'memory', 'team', 'MEMORY.md'), 'utf8')).toContain('team');
    // Of a session's folder only the sidechains come (its notes are Claude Code's, kept there).
    await expect(fs.stat(path.join(p, 'a', 'session-memory'))).rejects.toThrow();
    await expect(fs.stat(path.join(vault, 'settings.json'))).rejects.toThrow();
    await expect(fs.stat(path.join(vault, 'projects', 'bad name!'))).rejects.toThrow();
  });

  it('skips everything on a second import', async () => {
    const from = await claudeHome();
    const vault = await tempDir();
    await importClaudeCode({ from, vaultRoot: vault });
    expect(await importClaudeCode({ from, vaultRoot: vault })).toEqual({ projects: 2, transcripts: 0, memoryFiles: 0, skipped: 8 });
  });

  it('never overwrites a file that is newer in the vault, but updates an older one', async () => {
    const from = await claudeHome();
    const vault = await tempDir();
    const p = path.join(vault, 'projects', SLUG);
    const future = new Date(Date.now() + 3_600_000);
    const past = new Date(Date.now() - 86_400_000 * 10);
    await write(path.join(p, 'a.jsonl'), 'mine, newer\n', future);
    await write(path.join(p, 'memory', 'MEMORY.md'), 'mine, older\n', past);
    const counts = await importClaudeCode({ from, vaultRoot: vault });
    expect(counts).toMatchObject({ transcripts: 4, memoryFiles: 3, skipped: 1 });
    expect(await fs.readFile(path.join(p, 'a.jsonl'), 'utf8')).toBe('mine, newer\n');
    expect(await fs.readFile(path.join(p, 'memory', 'MEMORY.md'), 'utf8')).toContain('[Role]');
  });

  it('does not follow symlinks out of the memory folder', async () => {
    const from = await claudeHome();
    const secret = path.join(await tempDir(), 'outside.md');
    await fs.writeFile(secret, 'outside');
    await fs.symlink(secret, path.join(from, 'projects', SLUG, 'memory', 'link.md'));
    const vault = await tempDir();
    await importClaudeCode({ from, vaultRoot: vault });
    await expect(fs.lstat(path.join(vault, 'projects', SLUG, 'memory', 'link.md'))).rejects.toThrow();
  });

  it('answers not_found for a folder without Claude Code data and refuses to import a vault into itself', async () => {
    const empty = await tempDir();
    await expect(importClaudeCode({ from: empty, vaultRoot: await tempDir() })).rejects.toMatchObject({ code: 'not_found' });
    const from = await claudeHome();
    await expect(importClaudeCode({ from, vaultRoot: from })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
