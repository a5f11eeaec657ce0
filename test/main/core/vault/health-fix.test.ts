import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../../../../common/memory-file/index.js';
import { trickyMemories } from '../../../fixtures/memory-files/tricky-memories.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const MEM = 'projects/-home-ana-app/memory';

async function root(): Promise<string> {
  const r = await tempDir('strata-health-fix-');
  await fs.mkdir(path.join(r, MEM), { recursive: true });
  for (const f of trickyMemories) await fs.writeFile(path.join(r, MEM, f.file), f.text);
  // Every tricky file is listed, plus two lines pointing at nothing; two plain memories are not listed.
  const lines = trickyMemories.map((f) => `- [${f.file}](${f.file}) — x`);
  await fs.writeFile(path.join(r, MEM, 'MEMORY.md'), [...lines, '- [Gone](gone.md) — x', '- [Also gone](<also gone.md>) — x', ''].join('\n'));
  await fs.writeFile(path.join(r, MEM, 'note 104.md'), memoryText('Note 104', 'one hundred four', 'a'));
  await fs.writeFile(path.join(r, MEM, 'note 1001.md'), memoryText('Note 1001', 'one thousand one', 'b'));
  return r;
}

describe('Health lists only what is really wrong, each with a fix, and fixes a kind at once', () => {
  it('lists the files Claude Code cannot read, not the ones it reads leniently', async () => {
    const { vault } = await openVault(await root());
    const report = await vault.health();
    const unreadable = trickyMemories.filter((f) => f.error || f.hasFrontmatter === false || !f.name || !f.description).map((f) => `${MEM}/${f.file}`);
    expect(report.problems.filter((p) => p.kind === 'frontmatter').map((p) => p.path).sort()).toEqual(unreadable.sort());
    expect(report.problems.filter((p) => p.kind === 'broken-pointer').map((p) => p.path)).toEqual([`${MEM}/also gone.md`, `${MEM}/gone.md`]);
    // Natural order: 104 before 1001.
    expect(report.problems.filter((p) => p.kind === 'missing-from-index').map((p) => p.path)).toEqual([`${MEM}/note 104.md`, `${MEM}/note 1001.md`]);
    expect(report.problems.every((p) => p.fix && p.message && !p.message.includes(MEM))).toBe(true);
  });

  it('repairs every broken frontmatter in one call, each through history, and then lists none', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    const result = await vault.healthFix('frontmatter');
    expect(result).toMatchObject({ fixed: 4, failed: [] });
    expect((await vault.health()).problems.filter((p) => p.kind === 'frontmatter')).toEqual([]);
    for (const f of trickyMemories) {
      const text = await fs.readFile(path.join(r, MEM, f.file), 'utf8');
      const parsed = parseMemoryFile(text);
      expect({ file: f.file, flags: parsed.flags.filter((x) => x !== 'untyped') }).toEqual({ file: f.file, flags: [] });
      expect(parsed.body).toContain(f.bodyWord);
    }
    // What the repair kept: the salvaged fields, the file name as a name, the first line as a description.
    expect(parseMemoryFile(await fs.readFile(path.join(r, MEM, 'duplicate-keys.md'), 'utf8'))).toMatchObject({ name: 'One', description: 'Twice named', type: 'user' });
    expect(parseMemoryFile(await fs.readFile(path.join(r, MEM, 'no-frontmatter.md'), 'utf8'))).toMatchObject({ name: 'no frontmatter', description: 'Just a note with: a colon.' });
    expect(parseMemoryFile(await fs.readFile(path.join(r, MEM, 'empty-values.md'), 'utf8'))).toMatchObject({ name: 'Empty', description: 'Empty fields.' });
    expect((await vault.timeline(`${MEM}/duplicate-keys.md`))[0]!.hash).toBeTruthy();
  });

  it('rebuilds a frontmatter in the shape chosen in Settings: the metadata shape with its type and modified', async () => {
    const r = await root();
    const { vault } = await openVault(r, { memoryShape: () => 'metadata', clock: { now: () => Date.parse('2026-12-05T01:00:00.000Z') } });
    await vault.healthFix('frontmatter');
    const text = await fs.readFile(path.join(r, MEM, 'duplicate-keys.md'), 'utf8');
    expect(parseMemoryFile(text)).toMatchObject({ name: 'one', description: 'Twice named', type: 'user', shape: 'metadata', flags: [] });
    expect(text).toContain('\n  modified: 2026-12-05T01:00:00.000Z\n');
    expect(text).not.toMatch(/^type:/m);
  });

  it('fixes the index for all problems of a kind with one write, or only the paths asked for', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    expect(await vault.healthFix('missing-from-index', [`${MEM}/note 1001.md`])).toMatchObject({ fixed: 1, failed: [] });
    let problems = (await vault.health()).problems;
    expect(problems.filter((p) => p.kind === 'missing-from-index').map((p) => p.path)).toEqual([`${MEM}/note 104.md`]);
    expect(await vault.healthFix('broken-pointer')).toMatchObject({ fixed: 2, failed: [] });
    expect(await vault.healthFix('missing-from-index', [`${MEM}/note 104.md`, `${MEM}/nothing.md`])).toMatchObject({
      fixed: 1,
      failed: [{ path: `${MEM}/nothing.md`, reason: 'Nothing to fix there any more' }],
    });
    problems = (await vault.health()).problems;
    expect(problems.filter((p) => p.kind !== 'frontmatter')).toEqual([]);
    const index = await fs.readFile(path.join(r, MEM, 'MEMORY.md'), 'utf8');
    expect(index).not.toContain('gone.md');
    expect(index).toContain('- [Note 104](<note 104.md>) — one hundred four');
    expect((await vault.timeline(`${MEM}/MEMORY.md`)).length).toBe(3);
  });
});
