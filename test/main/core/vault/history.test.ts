import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { fakeClock, openVault, memoryText, waitFor } from './vault-helpers.js';
import { HistoryStore } from '../../../../main/core/vault/history-store.js';
import { silentLogger } from '../../../../main/core/ports.js';

const MEM = 'projects/p1/memory';

async function root(): Promise<string> {
  const r = await tempDir('strata-history-');
  await fs.mkdir(path.join(r, MEM), { recursive: true });
  await fs.writeFile(path.join(r, MEM, 'MEMORY.md'), '# Index\n- [Alpha](alpha.md) — the first\n- [Beta](beta.md) — the second\n');
  await fs.writeFile(path.join(r, MEM, 'alpha.md'), memoryText('Alpha', 'first', 'v1'));
  await fs.writeFile(path.join(r, MEM, 'beta.md'), memoryText('Beta', 'second', 'beta'));
  return r;
}

describe('History engine', () => {
  it('snapshots a memory before each change as content-addressed blobs without .md names', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    const v1 = await vault.read(`${MEM}/alpha.md`);
    const v2 = await vault.write(`${MEM}/alpha.md`, v1.text.replace('v1', 'v2'), { baseHash: v1.hash });
    await vault.write(`${MEM}/alpha.md`, v2.text.replace('v2', 'v3'), { baseHash: v2.hash, reason: 'rename' });
    const timeline = await vault.timeline(`${MEM}/alpha.md`);
    expect(timeline.map((v) => v.hash)).toEqual([v2.hash, v1.hash]);
    const { text, diff } = await vault.readVersion(`${MEM}/alpha.md`, v1.hash);
    expect(text).toBe(v1.text);
    expect(diff).toMatch(/^-v1$/m);
    expect(diff).toMatch(/^\+v3$/m);
    const blobs = await fs.readdir(path.join(r, '.strata', 'history', 'blobs'));
    expect(blobs.every((b) => /^[a-f0-9]{64}$/.test(b))).toBe(true);
    const all = await fs.readdir(path.join(r, '.strata', 'history'), { recursive: true });
    expect(all.filter((f) => String(f).endsWith('.md'))).toEqual([]);
  });

  it('makes a restore undoable by snapshotting the current content first', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    const v1 = await vault.read(`${MEM}/alpha.md`);
    const v2 = await vault.write(`${MEM}/alpha.md`, v1.text.replace('v1', 'v2'), { baseHash: v1.hash });
    const restored = await vault.restore(`${MEM}/alpha.md`, v1.hash);
    expect(restored.text).toBe(v1.text);
    expect((await vault.timeline(`${MEM}/alpha.md`))[0]!.hash).toBe(v2.hash);
    const undone = await vault.restore(`${MEM}/alpha.md`, v2.hash);
    expect(undone.text).toBe(v2.text);
  });

  it('soft-deletes a memory with its index line and brings both back on Undo', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    const before = await fs.readFile(path.join(r, MEM, 'MEMORY.md'), 'utf8');
    const { undoToken } = await vault.delete(`${MEM}/beta.md`);
    expect(await fs.access(path.join(r, MEM, 'beta.md')).then(() => true, () => false)).toBe(false);
    expect(await fs.readFile(path.join(r, MEM, 'MEMORY.md'), 'utf8')).not.toMatch(/beta\.md/);
    expect((await vault.listDeleted()).map((d) => d.path)).toEqual([`${MEM}/beta.md`]);
    expect(await vault.undoDelete(undoToken)).toEqual({ restored: `${MEM}/beta.md` });
    expect(await fs.readFile(path.join(r, MEM, 'beta.md'), 'utf8')).toBe(memoryText('Beta', 'second', 'beta'));
    expect((await fs.readFile(path.join(r, MEM, 'MEMORY.md'), 'utf8')).split('\n').sort()).toEqual(before.split('\n').sort());
    expect(await vault.listDeleted()).toEqual([]);
    await expect(vault.undoDelete(undoToken)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('restores a deleted file from the history, with its MEMORY.md line back once', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    const index = () => fs.readFile(path.join(r, MEM, 'MEMORY.md'), 'utf8');
    await vault.delete(`${MEM}/alpha.md`);
    expect(await index()).not.toContain('(alpha.md)');
    const [deleted] = await vault.listDeleted();
    const file = await vault.restore(deleted!.path, deleted!.hash);
    expect(file.text).toBe(memoryText('Alpha', 'first', 'v1'));
    expect((await index()).split('\n').filter((l) => l.includes('(alpha.md)'))).toEqual(['- [Alpha](alpha.md) — first']);
    expect(await vault.listDeleted()).toEqual([]);
    await vault.restore(deleted!.path, deleted!.hash);
    expect((await index()).match(/\(alpha\.md\)/g)).toHaveLength(1);
  });

  it('renames a memory and points its MEMORY.md line at the new name', async () => {
    const r = await root();
    const { vault, changes } = await openVault(r);
    const meta = await vault.rename(`${MEM}/alpha.md`, 'first-thing.md');
    expect(meta.path).toBe(`${MEM}/first-thing.md`);
    expect(await fs.readFile(path.join(r, MEM, 'MEMORY.md'), 'utf8')).toBe(
      '# Index\n- [Alpha](first-thing.md) — the first\n- [Beta](beta.md) — the second\n',
    );
    expect((await vault.memoryIndex('p1', false)).lines.every((l) => !l.broken)).toBe(true);
    await waitFor(() => changes.some((c) => c.kind === 'renamed'), 'own rename reported');
    expect(changes.find((c) => c.kind === 'renamed')).toEqual({ kind: 'renamed', path: `${MEM}/first-thing.md`, from: `${MEM}/alpha.md`, external: false });
    await expect(vault.rename(`${MEM}/beta.md`, 'first-thing.md')).rejects.toMatchObject({ code: 'conflict' });
  });

  it('drops versions older than the retention days, oldest first', async () => {
    const r = await tempDir('strata-retention-');
    const clock = fakeClock();
    const store = new HistoryStore(r, clock, silentLogger, { days: 30, maxBytes: 100 * 1024 * 1024 });
    const old = await store.snapshot('projects/p/memory/a.md', 'old', 'edit');
    clock.advanceDays(20);
    const mid = await store.snapshot('projects/p/memory/a.md', 'mid', 'edit');
    clock.advanceDays(15);
    const recent = await store.snapshot('projects/p/memory/b.md', 'recent', 'edit');
    expect((await store.timeline('projects/p/memory/a.md')).map((v) => v.hash)).toEqual([mid.hash]);
    expect((await store.timeline('projects/p/memory/b.md')).map((v) => v.hash)).toEqual([recent.hash]);
    expect(await fs.readdir(path.join(r, '.strata', 'history', 'blobs'))).not.toContain(old.hash);
  });

  it('keeps the history under its byte limit by dropping the oldest versions', async () => {
    const r = await tempDir('strata-retention-');
    const clock = fakeClock();
    const store = new HistoryStore(r, clock, silentLogger, { days: 30, maxBytes: 2_500 });
    const hashes: string[] = [];
    for (let i = 0; i < 5; i++) {
      hashes.push((await store.snapshot(`projects/p/memory/f${i}.md`, String(i).repeat(1000), 'edit')).hash);
      clock.advanceDays(0.01);
    }
    expect(await store.totalBytes()).toBeLessThanOrEqual(2_500);
    const kept = (await fs.readdir(path.join(r, '.strata', 'history', 'blobs'))).sort();
    expect(kept).toEqual([hashes[3], hashes[4]].sort());
    expect(await store.timeline('projects/p/memory/f0.md')).toEqual([]);
    // A reopened store reads the same state from disk.
    const reopened = new HistoryStore(r, clock, silentLogger, { days: 30, maxBytes: 2_500 });
    expect((await reopened.timeline('projects/p/memory/f4.md')).map((v) => v.hash)).toEqual([hashes[4]]);
  });

  it('snapshots what was indexed before an external change to a memory', async () => {
    const r = await root();
    const { vault, changes } = await openVault(r);
    const before = await vault.read(`${MEM}/beta.md`);
    await fs.writeFile(path.join(r, MEM, 'beta.md'), 'overwritten by another editor\n');
    await waitFor(() => changes.some((c) => c.path === `${MEM}/beta.md`), 'external change');
    await vault.idle();
    expect((await vault.timeline(`${MEM}/beta.md`)).map((v) => [v.hash, v.reason])).toEqual([[before.hash, 'before-external-change']]);
  });
});
