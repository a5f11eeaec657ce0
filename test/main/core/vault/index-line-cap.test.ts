import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const SLUG = '-home-ana-app';
const MEM = `projects/${SLUG}/memory`;
const INDEX = `${MEM}/MEMORY.md`;

/** A memory folder whose MEMORY.md holds `lines` pointer lines, each to a memory of its own (or `hook`-long lines). */
async function fullFolder(lines: number, hook = (i: number) => `what note ${i} says`): Promise<{ root: string; index: string }> {
  const root = await tempDir('strata-index-cap-');
  const dir = path.join(root, MEM);
  await fs.mkdir(dir, { recursive: true });
  const index = `${Array.from({ length: lines }, (_, i) => `- [Note ${i}](note-${i}.md) — ${hook(i)}`).join('\n')}\n`;
  await Promise.all(Array.from({ length: lines }, (_, i) => fs.writeFile(path.join(dir, `note-${i}.md`), memoryText(`Note ${i}`, hook(i), `body ${i}`))));
  await fs.writeFile(path.join(dir, 'MEMORY.md'), index);
  return { root, index };
}

const read = (root: string, rel: string) => fs.readFile(path.join(root, rel), 'utf8');
const newMemory = { projectSlug: SLUG, team: false, fileName: 'project_launch.md', name: 'Launch day', description: 'the launch is on Friday', type: 'project', body: 'The launch is on Friday.' };

/**
 * New memory, a restore from history and the Undo of a delete add a MEMORY.md line only when it fits
 * under the caps the agent reads (docs/memory.md#memory-index), as Health's fix does: the memory is
 * written either way, and the answer says which cap stopped the line.
 */
describe('a memory the user writes or brings back, at a full MEMORY.md', () => {
  it('New memory writes the file, leaves a 200-line index as it is, and says the line did not fit', async () => {
    const { root, index } = await fullFolder(200);
    const { vault } = await openVault(root);
    const file = await vault.createMemory(newMemory);
    expect(file.indexSkipped).toEqual({ limit: 'lines', maxLines: 200, maxChars: 25_000, projectSlug: SLUG, team: false });
    expect(await read(root, `${MEM}/project_launch.md`)).toContain('The launch is on Friday.');
    expect(await read(root, INDEX)).toBe(index);
  });

  it('New memory stops at the character cap too, and adds its line where there is room', async () => {
    const long = await fullFolder(120, (i) => `${'a long specific hook that says a lot '.repeat(5)}${i}`);
    const opened = await openVault(long.root);
    expect((await opened.vault.createMemory(newMemory)).indexSkipped?.limit).toBe('characters');
    expect(await read(long.root, INDEX)).toBe(long.index);

    const roomy = await fullFolder(199);
    const { vault } = await openVault(roomy.root);
    const file = await vault.createMemory(newMemory);
    expect(file.indexSkipped).toBeUndefined();
    expect(await read(roomy.root, INDEX)).toBe(`${roomy.index}- [Launch day](project_launch.md) — the launch is on Friday\n`);
  });

  it('restoring a deleted memory from its history, and undoing a delete, bring the file back without passing the cap', async () => {
    const { root } = await fullFolder(200);
    const { vault } = await openVault(root);
    // Delete note-0 (its line goes), fill the freed line with another memory, then bring note-0 back.
    const deleted = await vault.delete(`${MEM}/note-0.md`);
    expect((await vault.createMemory(newMemory)).indexSkipped).toBeUndefined();
    const full = await read(root, INDEX);
    expect(full.trimEnd().split('\n')).toHaveLength(200);

    const undone = await vault.undoDelete(deleted.undoToken);
    expect(undone).toEqual({ restored: `${MEM}/note-0.md`, indexSkipped: { limit: 'lines', maxLines: 200, maxChars: 25_000, projectSlug: SLUG, team: false } });
    expect(await read(root, `${MEM}/note-0.md`)).toContain('body 0');
    expect(await read(root, INDEX)).toBe(full);

    await vault.delete(`${MEM}/note-1.md`);
    await vault.createMemory({ ...newMemory, fileName: 'project_other.md', name: 'Other' });
    const [gone] = (await vault.listDeleted()).filter((d) => d.path === `${MEM}/note-1.md`);
    const restored = await vault.restore(gone!.path, gone!.hash);
    expect(restored.indexSkipped).toEqual({ limit: 'lines', maxLines: 200, maxChars: 25_000, projectSlug: SLUG, team: false });
    expect(await read(root, `${MEM}/note-1.md`)).toContain('body 1');
    expect((await read(root, INDEX)).trimEnd().split('\n')).toHaveLength(200);
  });
});
