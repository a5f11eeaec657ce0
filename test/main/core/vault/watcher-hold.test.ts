import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import type { VaultChange } from '../../../../common/domain/vault.js';
import { Vault } from '../../../../main/core/vault/vault.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { memoryText, waitFor } from './vault-helpers.js';

/** Whether `promise` has settled yet. */
function settled(promise: Promise<unknown>): { done: boolean } {
  const state = { done: false };
  const done = () => (state.done = true);
  void promise.then(done, done);
  return state;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watching vault over `root` (real chokidar), with `holds` holds taken before it opens; closed after the test. */
function watchingVault(root: string, holds = 0, watchHoldMs?: number) {
  const vault = new Vault({ root, clock: { now: () => Date.now() }, logger: testLogger().logger, config: () => defaultMemoryConfig, ...(watchHoldMs ? { watchHoldMs } : {}) });
  onTestFinished(() => vault.close());
  const letGo = Array.from({ length: holds }, () => vault.holdWatching());
  const changes: VaultChange[] = [];
  vault.onChanges((batch) => changes.push(...batch));
  return { vault, letGo, changes };
}

describe('holding off the vault watcher (docs/memory.md#recall "Reading the folder")', () => {
  it('starts the watcher once every hold is let go, and catches up on what changed meanwhile', async () => {
    const root = await tempDir('strata-hold-');
    const memoryDir = path.join(root, 'projects', '-work-app', 'memory');
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'a.md'), memoryText('A', 'First', 'One.'));
    const { vault, letGo, changes } = watchingVault(root, 2);
    await vault.open();
    const watching = settled(vault.whenWatching());
    await pause(300);
    expect(watching.done).toBe(false);
    expect(vault.catalogLive).toBe(false);

    // Written while held: the catch-up pass reports it once the watcher runs.
    await fs.writeFile(path.join(memoryDir, 'b.md'), memoryText('B', 'Second', 'Two.'));
    letGo[0]!();
    letGo[0]!(); // a second call is no second release
    await pause(300);
    expect(watching.done).toBe(false);
    letGo[1]!();
    await vault.whenWatching();
    expect(vault.catalogLive).toBe(true);
    await waitFor(() => changes.some((c) => c.path.endsWith('/b.md')), 'the catch-up to report b.md');
    // From then on the watcher follows the files.
    await fs.writeFile(path.join(memoryDir, 'c.md'), memoryText('C', 'Third', 'Three.'));
    await waitFor(() => changes.some((c) => c.path.endsWith('/c.md')), 'the watcher to report c.md');
  });

  it('ends a hold that is never let go by itself, counted from when the vault is searchable', async () => {
    // As a turn whose model never answers: the vault must not stop seeing edits until its request times out.
    const { vault } = watchingVault(await tempDir('strata-hold-expiry-'), 1, 400);
    await vault.open();
    const watching = settled(vault.whenWatching());
    await pause(150);
    expect(watching.done).toBe(false);
    await vault.whenWatching();
    expect(vault.catalogLive).toBe(true);
  });

  it('lets whoever waits for the watcher go when the vault closes while it is still held', async () => {
    const { vault, letGo } = watchingVault(await tempDir('strata-hold-close-'), 1);
    await vault.open();
    const watching = vault.whenWatching();
    await vault.close();
    await expect(watching).resolves.toBeUndefined();
    letGo[0]!();
    expect(vault.catalogLive).toBe(false);
  });

  it('makes whenWatching asked while the vault opens wait for the watcher, not answer at once', async () => {
    const root = await tempDir('strata-hold-opening-');
    await fs.writeFile(path.join(root, 'note.md'), '# Note\n');
    const { vault } = watchingVault(root);
    const opening = vault.open();
    await vault.whenWatching();
    expect(vault.catalogLive).toBe(true);
    await opening;
  });
});
