import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addLinesThatFit } from '../../../../main/core/vault/health-fix.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const MEM = 'projects/-home-ana-app/memory';
const INDEX = `${MEM}/MEMORY.md`;

/** A memory folder with `listed` memories in a MEMORY.md the user wrote (plus a heading), and `unlisted` more. */
async function folder(listed: number, unlisted: number, describe = (i: number) => `what note ${i} says`): Promise<{ root: string; index: string }> {
  const root = await tempDir('strata-health-cap-');
  const dir = path.join(root, MEM);
  await fs.mkdir(dir, { recursive: true });
  const lines = ['# My index'];
  await Promise.all(
    Array.from({ length: listed + unlisted }, (_, i) => {
      if (i < listed) lines.push(`- [Mine ${i}](note-${i}.md) — my own words for ${i}`);
      return fs.writeFile(path.join(dir, `note-${i}.md`), memoryText(`Note ${i}`, describe(i), `body ${i}`));
    }),
  );
  const index = listed > 0 ? `${lines.join('\n')}\n` : '';
  if (index) await fs.writeFile(path.join(dir, 'MEMORY.md'), index);
  return { root, index };
}

const read = (root: string) => fs.readFile(path.join(root, INDEX), 'utf8');
const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length;

describe("Health's index fix keeps MEMORY.md within what the agent reads (docs/memory.md#memory-index)", () => {
  it('adds only the lines that fit under 200, keeps the user’s lines first, says how many did not fit, and undoes as one step', async () => {
    const { root, index } = await folder(189, 400);
    const { vault } = await openVault(root);
    const result = await vault.healthFix('missing-from-index');
    expect(result).toMatchObject({ fixed: 10, failed: [], didNotFit: { count: 390, limit: 'lines', maxLines: 200, maxChars: 25_000 } });
    const after = await read(root);
    expect(lineCount(after)).toBe(200);
    expect(after.length).toBeLessThanOrEqual(25_000);
    expect(after.startsWith(index)).toBe(true);
    // In natural order: the first unlisted memories.
    expect(after.slice(index.length).split('\n')[0]).toBe('- [Note 189](note-189.md) — what note 189 says');

    const report = await vault.health();
    expect(report.problems.some((p) => p.kind === 'index-over-cap')).toBe(false);
    const missing = report.problems.filter((p) => p.kind === 'missing-from-index');
    expect(missing).toHaveLength(390);
    expect(missing.every((p) => p.next === 'tidy' && p.message.includes('MEMORY.md, which is full'))).toBe(true);

    expect(await vault.healthUndo(result.undoToken!)).toEqual({ restored: 1, failed: [] });
    expect(await read(root)).toBe(index);
    await expect(vault.healthUndo(result.undoToken!)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('stops at the character cap when the lines are long', async () => {
    const { root } = await folder(0, 300, (i) => `${'a long specific hook that says a lot '.repeat(4)}${i}`);
    const { vault } = await openVault(root);
    const result = await vault.healthFix('missing-from-index');
    expect(result.didNotFit?.limit).toBe('characters');
    const after = await read(root);
    expect(after.length).toBeLessThanOrEqual(25_000);
    expect(lineCount(after)).toBe(result.fixed);
    expect(result.fixed + result.didNotFit!.count).toBe(300);
    // The fix created MEMORY.md: its Undo removes it.
    await vault.healthUndo(result.undoToken!);
    await expect(fs.access(path.join(root, INDEX))).rejects.toThrow();
  });

  it('lists an index over its cap as a problem of its own, first, and adds nothing to it', async () => {
    const { root, index } = await folder(250, 5);
    const { vault } = await openVault(root);
    const report = await vault.health();
    expect(report.problems[0]).toMatchObject({ kind: 'index-over-cap', path: INDEX, fix: 'Tidy memory in the Inbox' });
    expect(report.problems[0]!.message).toContain('251 lines');
    expect(report.problems[0]!.message).toContain('first 200 lines');
    const result = await vault.healthFix('missing-from-index');
    expect(result).toEqual({ fixed: 0, failed: [], didNotFit: { count: 5, limit: 'lines', maxLines: 200, maxChars: 25_000 } });
    expect(await read(root)).toBe(index);
    // The MEMORY.md view's own "add" refuses too, with the reason.
    await expect(vault.fixIndex('-home-ana-app', false, 'add-missing', 'note-251.md')).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('MEMORY.md is full') });
  });

  it('leaves a file changed since the fix as it is, and says so', async () => {
    const { root } = await folder(3, 2);
    const { vault } = await openVault(root);
    const result = await vault.healthFix('missing-from-index');
    const edited = `${await read(root)}- my own later line\n`;
    await fs.writeFile(path.join(root, INDEX), edited);
    expect(await vault.healthUndo(result.undoToken!)).toEqual({ restored: 0, failed: [{ path: INDEX, reason: 'Changed since the fix, so left as it is' }] });
    expect(await read(root)).toBe(edited);
  });

  it('undoes a fix of many files as one step', async () => {
    const root = await tempDir('strata-health-cap-');
    await fs.mkdir(path.join(root, MEM), { recursive: true });
    const broken = ['a', 'b', 'c'].map((n) => ({ file: `${n}.md`, text: `no frontmatter in ${n}\n` }));
    for (const b of broken) await fs.writeFile(path.join(root, MEM, b.file), b.text);
    const { vault } = await openVault(root);
    const result = await vault.healthFix('frontmatter');
    expect(result.fixed).toBe(3);
    expect(await fs.readFile(path.join(root, MEM, 'a.md'), 'utf8')).not.toBe(broken[0]!.text);
    expect(await vault.healthUndo(result.undoToken!)).toEqual({ restored: 3, failed: [] });
    for (const b of broken) expect(await fs.readFile(path.join(root, MEM, b.file), 'utf8')).toBe(b.text);
  });
});

describe('addLinesThatFit', () => {
  const caps = { indexMaxLines: 3, indexMaxChars: 60 };
  it('counts a missing final newline and stops at the first line that would not fit', () => {
    expect(addLinesThatFit('- [A](a.md)', [{ target: 'b.md', title: 'B', hook: '' }, { target: 'c.md', title: 'C', hook: '' }, { target: 'd.md', title: 'D', hook: '' }], caps)).toEqual({
      text: '- [A](a.md)\n- [B](b.md)\n- [C](c.md)\n',
      added: 2,
      limit: 'lines',
    });
    expect(addLinesThatFit('', [{ target: 'b.md', title: 'B', hook: 'x'.repeat(80) }], caps)).toEqual({ text: '', added: 0, limit: 'characters' });
  });
});
