import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { MemoryRecall } from '../../../../main/core/auto-memory/memory-recall.js';
import { VaultMemorySource } from '../../../../main/core/auto-memory/memory-source.js';
import { Vault } from '../../../../main/core/vault/vault.js';
import { silentLogger } from '../../../../main/core/ports.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault, waitFor } from '../vault/vault-helpers.js';
import { writeWalrusMemories } from './walrus-memories.js';

/** A watching vault with one project's memory folder holding `n` memories. */
async function vaultWithMemories(n: number, options: Parameters<typeof openVault>[1] = {}) {
  const root = await memoryFolder(n);
  const { vault } = await openVault(root, options);
  return { root, vault, memoryDir: path.join(root, 'projects', '-work-app', 'memory') };
}

/** A vault root with one project's memory folder holding `n` memories, not opened. */
async function memoryFolder(n: number): Promise<string> {
  const root = await tempDir('strata-recall-source-');
  const memoryDir = path.join(root, 'projects', '-work-app', 'memory');
  await writeWalrusMemories(memoryDir, n);
  return root;
}

describe('VaultMemorySource', () => {
  it('gives recall the folder from the vault’s catalog, reading no file the catalog holds', async () => {
    const { vault, memoryDir } = await vaultWithMemories(30);
    const source = new VaultMemorySource(vault);
    const files = (await source.filesIn(memoryDir))!;
    expect(files).toHaveLength(30);
    expect(files[0]!.absPath.startsWith(memoryDir + path.sep)).toBe(true);
    expect(files.find((f) => f.relPath === 'note_3.md')!.description).toBe('Fact 3 about the walrus project');
    // Parsed once: a second turn takes every file as it was.
    const again = (await source.filesIn(memoryDir))!;
    expect(again.every((f, i) => f === files.find((g) => g.relPath === again[i]!.relPath))).toBe(true);
  });

  it('sees a file written a moment ago, before the watcher reports it, and drops a deleted one at once', async () => {
    const { vault, memoryDir } = await vaultWithMemories(3);
    const source = new VaultMemorySource(vault);
    await source.filesIn(memoryDir);
    await fs.writeFile(path.join(memoryDir, 'fresh.md'), memoryText('Fresh', 'The narwhal launch is on Friday', 'Narwhal.'));
    await fs.rm(path.join(memoryDir, 'note_0.md'));
    const names = (await source.filesIn(memoryDir))!.map((f) => f.relPath).sort();
    expect(names).toEqual(['fresh.md', 'note_1.md', 'note_2.md']);
  });

  it('follows an edit once the watcher saw it, though the folder holds the same names', async () => {
    const { vault, memoryDir } = await vaultWithMemories(2);
    const source = new VaultMemorySource(vault);
    expect((await source.filesIn(memoryDir))!.find((f) => f.relPath === 'note_1.md')!.description).toBe('Fact 1 about the walrus project');
    await fs.writeFile(path.join(memoryDir, 'note_1.md'), memoryText('Note 1', 'The walrus project moved to Oslo', 'Oslo.'));
    await waitFor(() => vault.docAt('projects/-work-app/memory/note_1.md')?.text.includes('Oslo') === true, 'the watcher to see the edit');
    expect((await source.filesIn(memoryDir))!.find((f) => f.relPath === 'note_1.md')!.description).toBe('The walrus project moved to Oslo');
  });

  it('is not used for a folder outside the vault, nor once the vault is closed', async () => {
    const { vault, memoryDir } = await vaultWithMemories(1);
    const source = new VaultMemorySource(vault);
    expect(await source.filesIn(await tempDir('strata-elsewhere-'))).toBeNull();
    await vault.close();
    expect(await source.filesIn(memoryDir)).toBeNull();
  });

  it('lets recall answer from the catalog, as from the disk', async () => {
    const { vault, memoryDir } = await vaultWithMemories(20);
    const config = defaultMemoryConfig.autoMemory;
    const recall = new MemoryRecall({ memoryDir, config, clock: { now: () => Date.now() }, source: new VaultMemorySource(vault) });
    const viaVault = await recall.recall({ query: 'what is fact 7 about the walrus', seen: new Set(), sessionBytesUsed: 0 });
    const viaDisk = await new MemoryRecall({ memoryDir, config, clock: { now: () => Date.now() } }).recall({ query: 'what is fact 7 about the walrus', seen: new Set(), sessionBytesUsed: 0 });
    expect(viaVault.memories.map((m) => m.relPath)).toEqual(viaDisk.memories.map((m) => m.relPath));
    expect(viaVault.memories[0]!.relPath).toBe('note_7.md');
  });

  it('waits for a vault that is still opening and takes the files from its catalog (recall does not read the folder beside it)', async () => {
    const root = await memoryFolder(400);
    const vault = new Vault({ root, clock: { now: () => Date.now() }, logger: silentLogger, config: () => defaultMemoryConfig, useCache: false, watch: false });
    const opening = vault.open();
    try {
      expect(vault.state).toBe('opening');
      const source = new VaultMemorySource(vault);
      const files = await source.filesIn(path.join(root, 'projects', '-work-app', 'memory'));
      expect(vault.state).toBe('ready');
      expect(files).toHaveLength(400);
      // Each parsed from the catalog's text: none was read from disk a second time.
      expect(source.reads).toBe(400);
    } finally {
      await opening;
      await vault.close();
    }
  });

  it('stops waiting for the opening vault when the turn is stopped', async () => {
    const root = await memoryFolder(200);
    const vault = new Vault({ root, clock: { now: () => Date.now() }, logger: silentLogger, config: () => defaultMemoryConfig, useCache: false, watch: false });
    const opening = vault.open();
    try {
      const stop = new AbortController();
      stop.abort();
      expect(await new VaultMemorySource(vault).filesIn(path.join(root, 'projects', '-work-app', 'memory'), stop.signal)).toBeNull();
    } finally {
      await opening;
      await vault.close();
    }
  });

  it('before the watcher runs, takes unchanged files from the catalog and reads again one edited on disk since', async () => {
    const { vault, memoryDir } = await vaultWithMemories(5, { watch: false });
    expect(vault.catalogLive).toBe(false);
    await fs.writeFile(path.join(memoryDir, 'note_2.md'), memoryText('Note 2', 'The walrus project moved to the Oslo office', 'Oslo.'));
    const source = new VaultMemorySource(vault);
    const files = (await source.filesIn(memoryDir))!;
    expect(files).toHaveLength(5);
    expect(files.find((f) => f.relPath === 'note_2.md')!.description).toBe('The walrus project moved to the Oslo office');
    expect(files.find((f) => f.relPath === 'note_3.md')!.description).toBe('Fact 3 about the walrus project');
    // The catalog still holds the old text: the new one came from the disk.
    expect(vault.docAt('projects/-work-app/memory/note_2.md')!.text).not.toContain('Oslo');
  });
});
