import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault, memoryText } from './vault-helpers.js';
import { nearDuplicates, shingles } from '../../../../main/core/vault/health.js';
import { parseIndex, retargetIndex } from '../../../../main/core/vault/memory-index.js';
import { slug } from '../../../../common/paths/slug.js';

const MEM = 'projects/p1/memory';
const DAY = 86_400_000;

async function root(): Promise<string> {
  const r = await tempDir('strata-health-');
  await fs.mkdir(path.join(r, MEM, 'team'), { recursive: true });
  const body = 'Run the integration tests against a real database before every merge to main because mocks hid a broken migration last quarter';
  await fs.writeFile(path.join(r, MEM, 'MEMORY.md'), '- [Tests](tests.md) — real db\n- [Gone](gone.md) — deleted long ago\n- [Copy](tests-copy.md) — dup\n');
  await fs.writeFile(path.join(r, MEM, 'tests.md'), memoryText('Tests', 'Integration tests hit a real DB', body, 'feedback'));
  await fs.writeFile(path.join(r, MEM, 'tests-copy.md'), memoryText('Tests again', 'integration tests hit a real db!', 'Something else entirely.', 'feedback'));
  await fs.writeFile(path.join(r, MEM, 'similar.md'), memoryText('Similar', 'a different line', `${body} again`, 'feedback'));
  await fs.writeFile(path.join(r, MEM, 'old.md'), memoryText('Old', 'ancient', 'old fact', 'user'));
  await fs.writeFile(path.join(r, 'CLAUDE.md'), 'x'.repeat(40_001));
  const old = new Date(Date.now() - 120 * DAY);
  await fs.utimes(path.join(r, MEM, 'old.md'), old, old);
  return r;
}

describe('Vault health', () => {
  it('reports tokens, headroom, broken and missing pointers, stale memories, duplicates and large CLAUDE.md', async () => {
    const { vault } = await openVault(await root());
    const report = await vault.health();
    expect(report.files.find((f) => f.path === 'CLAUDE.md')!.tokens).toBe(Math.ceil(40_001 / 4));
    expect(report.totalTokens).toBe(report.files.reduce((s, f) => s + f.tokens, 0));
    expect(report.indexes).toEqual([expect.objectContaining({ projectSlug: 'p1', lines: 3, maxLines: 200, maxChars: 25_000 })]);
    expect(report.brokenPointers).toEqual([expect.objectContaining({ projectSlug: 'p1', target: 'gone.md' })]);
    expect(report.missingFromIndex.map((m) => m.path).sort()).toEqual(['old.md', 'similar.md']);
    expect(report.stale).toEqual([{ path: `${MEM}/old.md`, days: expect.any(Number) }]);
    expect(report.stale[0]!.days).toBeGreaterThanOrEqual(119);
    expect(report.duplicates).toEqual(
      expect.arrayContaining([
        { a: `${MEM}/tests-copy.md`, b: `${MEM}/tests.md`, why: 'description' },
        { a: `${MEM}/similar.md`, b: `${MEM}/tests.md`, why: 'similar-body' },
      ]),
    );
    expect(report.duplicates).toHaveLength(2);
    expect(report.largeInstructions).toEqual([{ path: 'CLAUDE.md', chars: 40_001 }]);
  });

  it("flags an opened project's own CLAUDE.md files over 40,000 characters, and counts their tokens", async () => {
    const project = await tempDir('strata-health-project-');
    await fs.mkdir(path.join(project, '.claude', 'rules'), { recursive: true });
    await fs.writeFile(path.join(project, 'CLAUDE.md'), 'y'.repeat(40_000));
    await fs.writeFile(path.join(project, '.claude', 'rules', 'big.md'), 'z'.repeat(50_000));
    const { vault } = await openVault(await root());
    await vault.setProjects([{ path: project }]);
    const base = `@projects/${slug(project)}`;
    const report = await vault.health();
    expect([...report.largeInstructions].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: `${base}/.claude/rules/big.md`, chars: 50_000 },
      { path: 'CLAUDE.md', chars: 40_001 },
    ]);
    expect(report.files.find((f) => f.path === `${base}/CLAUDE.md`)!.tokens).toBe(10_000);
  });

  it('fixes the index in one click: adds a missing file, removes a broken line', async () => {
    const { vault } = await openVault(await root());
    let view = await vault.fixIndex('p1', false, 'add-missing', 'old.md');
    expect(view.lines.find((l) => l.target === 'old.md')).toMatchObject({ title: 'Old', hook: 'ancient', broken: false });
    view = await vault.fixIndex('p1', false, 'remove-broken', 'gone.md');
    expect(view.lines.map((l) => l.target)).toEqual(['tests.md', 'tests-copy.md', 'old.md']);
    expect(view.missing).toEqual(['similar.md']);
  });

  it('stops flagging a stale memory the user marks as still true, without changing its text', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    const before = await fs.readFile(path.join(r, MEM, 'old.md'), 'utf8');
    const meta = await vault.markReviewed(`${MEM}/old.md`);
    expect(Date.now() - Date.parse(meta.mtime)).toBeLessThan(60_000);
    expect((await vault.health()).stale).toEqual([]);
    expect(await fs.readFile(path.join(r, MEM, 'old.md'), 'utf8')).toBe(before);
    await expect(vault.markReviewed('CLAUDE.md')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(vault.markReviewed(`${MEM}/MEMORY.md`)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(vault.markReviewed(`${MEM}/nope.md`)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('computes shingle Jaccard and index edits exactly', async () => {
    expect([...shingles('a b c d')]).toEqual(['a b c', 'b c d']);
    const same = 'one two three four five six seven eight nine ten';
    expect(await nearDuplicates([{ path: 'a', group: 'g', description: 'x', body: same }, { path: 'b', group: 'g', description: 'y', body: same }], 0.8)).toEqual([
      { a: 'a', b: 'b', why: 'similar-body' },
    ]);
    expect(await nearDuplicates([{ path: 'a', group: 'g1', description: 'x', body: same }, { path: 'b', group: 'g2', description: 'x', body: same }], 0.8)).toEqual([]);
    expect(parseIndex('# T\n- [A b](a.md) — hook one\n* [C](./c%20d.md): hook\nprose')).toEqual([
      { line: 2, title: 'A b', target: 'a.md', hook: 'hook one' },
      { line: 3, title: 'C', target: 'c d.md', hook: 'hook' },
    ]);
    expect(retargetIndex('- [A](a.md) — h\r\n- [B](b.md) — h\r\n', 'a.md', 'z.md')).toBe('- [A](z.md) — h\r\n- [B](b.md) — h\r\n');
    expect(retargetIndex('- [A](a.md)\n', 'x.md', 'z.md')).toBeNull();
  });
});
