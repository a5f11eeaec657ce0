import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { ChangesetStore, Consolidator, createConsolidationFork, type ConsolidatorOptions } from '../../../../main/core/consolidation/index.js';
import { createLlmClient } from '../../../../main/core/llm/index.js';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { vaultSecretScan } from '../../../../main/core/secrets/index.js';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from '../vault/vault-helpers.js';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const line = (i: number) => `- [Note ${i}](note-${i}.md) — what note ${i} says`;

/**
 * A memory folder at MEMORY.md's 200-line cap, and an applied tidy pass that deleted note-1.md (a
 * duplicate of note-0.md) and dropped its line.
 */
async function tidiedFullFolder(pass: 'delete' | 'reword' = 'delete') {
  const vaultRoot = await tempDir('strata-undo-cap-vault-');
  const project = await tempDir('strata-undo-cap-project-');
  const paths = await ProjectPaths.resolve(vaultRoot, project);
  const dir = paths.memoryDir;
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(Array.from({ length: 200 }, (_, i) => fs.writeFile(path.join(dir, `note-${i}.md`), memoryText(`Note ${i}`, `what note ${i} says`, `body ${i}`))));
  await fs.writeFile(path.join(dir, 'MEMORY.md'), `${Array.from({ length: 200 }, (_, i) => line(i)).join('\n')}\n`);
  const { vault } = await openVault(vaultRoot);
  fake = await startFakeAnthropic({ strict: true });
  const llm = createLlmClient({ getApiKey: async () => 'sk-test', baseURL: fake.url, model: 'claude-test' });
  const options: ConsolidatorOptions = {
    vault,
    memoryDir: dir,
    projectDir: paths.projectDir,
    transcriptsDirs: [paths.transcriptsDir],
    config: () => defaultMemoryConfig,
    switches: () => ({ consolidation: true, autoApply: true }),
    clock: { now: () => Date.UTC(2026, 11, 7, 9) },
    fork: createConsolidationFork({ llm, projectDir: paths.projectDir, memoryDirs: [dir] }),
    store: new ChangesetStore(vaultRoot),
    scan: vaultSecretScan(vaultRoot),
  };
  fake.enqueue(
    toolCalls([{ name: 'Read', input: { file_path: path.join(dir, 'MEMORY.md') } }]),
    toolCalls(
      pass === 'delete'
        ? [
            { name: 'Delete', input: { file_path: path.join(dir, 'note-1.md') } },
            { name: 'Write', input: { file_path: path.join(dir, 'MEMORY.md'), content: `${Array.from({ length: 200 }, (_, i) => line(i)).filter((_, i) => i !== 1).join('\n')}\n` } },
          ]
        : // Only the index: note 1's line rewritten, and note 2's taken out (its file stays).
          [{ name: 'Write', input: { file_path: path.join(dir, 'MEMORY.md'), content: `${Array.from({ length: 200 }, (_, i) => (i === 1 ? '- [Note 1](note-1.md) — reworded' : line(i))).filter((_, i) => i !== 2).join('\n')}\n` } }],
    ),
    text('Done.\n- note-1.md: duplicate of note-0.md'),
  );
  const consolidator = new Consolidator(options);
  const outcome = await consolidator.runNow();
  if (outcome.kind !== 'proposed') throw new Error(JSON.stringify(outcome));
  const deletion = outcome.changeset.items.find((i) => i.path.endsWith(pass === 'delete' ? '/note-1.md' : '/MEMORY.md'))!;
  expect(deletion.status).toBe('applied');
  // The freed line is taken by a memory the user writes meanwhile: the index is at its cap again.
  const created = await vault.createMemory({ projectSlug: paths.memorySlug, team: false, fileName: 'launch.md', name: 'Launch', description: 'on Friday', type: 'project', body: 'Friday.' });
  expect(created.indexSkipped).toBeUndefined();
  const full = await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8');
  expect(full.trimEnd().split('\n')).toHaveLength(200);
  return { vault, vaultRoot, dir, options, consolidator, changesetId: outcome.changeset.id, itemId: deletion.id, full, slug: paths.memorySlug };
}

/**
 * The Undo of a tidy pass's delete brings the memory back as the vault's own restore and delete Undo do
 * (docs/memory.md#memory-index): its MEMORY.md line only under the caps the agent reads, and a line left
 * out comes back to the Inbox as `indexSkipped`, for the toast that names the cap.
 */
describe('undoing a tidy-up at a full MEMORY.md', () => {
  it('brings the deleted memory back, leaves the 200-line index as it is, and says which cap stopped its line', async () => {
    const t = await tidiedFullFolder();
    const undone = await t.consolidator.undo(t.changesetId, t.itemId);
    expect(undone.indexSkipped).toEqual({ limit: 'lines', maxLines: 200, maxChars: 25_000, projectSlug: t.slug, team: false });
    expect(undone.items.find((i) => i.id === t.itemId)!.status).toBe('undone');
    expect(await fs.readFile(path.join(t.dir, 'note-1.md'), 'utf8')).toContain('body 1');
    expect(await fs.readFile(path.join(t.dir, 'MEMORY.md'), 'utf8')).toBe(t.full);
  });

  it('after a restart too, when the memory comes back from history', async () => {
    const t = await tidiedFullFolder();
    await t.vault.close();
    const { vault: reopened } = await openVault(t.vaultRoot);
    const undone = await new Consolidator({ ...t.options, vault: reopened }).undo(t.changesetId, t.itemId);
    expect(undone.indexSkipped).toEqual({ limit: 'lines', maxLines: 200, maxChars: 25_000, projectSlug: t.slug, team: false });
    expect(await fs.readFile(path.join(t.dir, 'note-1.md'), 'utf8')).toContain('body 1');
    expect(await fs.readFile(path.join(t.dir, 'MEMORY.md'), 'utf8')).toBe(t.full);
  });

  it('undoing the MEMORY.md change of a pass puts its lines back and keeps the line written since', async () => {
    const t = await tidiedFullFolder('reword');
    await t.consolidator.undo(t.changesetId, t.itemId);
    const index = await fs.readFile(path.join(t.dir, 'MEMORY.md'), 'utf8');
    expect(index).toContain(`${line(1)}\n${line(2)}\n`);
    expect(index).not.toContain('reworded');
    expect(index).toMatch(/\]\(launch\.md\)/);
  });
});
