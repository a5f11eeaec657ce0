import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileWatcher, WatcherFactory } from '../../../../main/core/vault/vault-watcher.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const TEAM = 'projects/p1/memory/team';

/** A watcher that is ready at once and never reports anything: only `notice` can tell the vault. */
const deafWatcher: WatcherFactory = () => {
  const watcher = new EventEmitter() as EventEmitter & FileWatcher;
  watcher.close = async () => undefined;
  setTimeout(() => watcher.emit('ready'), 0);
  return watcher;
};

describe('Vault.notice', () => {
  it('indexes files another engine wrote or removed, without the watcher, and says so once', async () => {
    const root = await tempDir('strata-notice-');
    await fs.mkdir(path.join(root, TEAM), { recursive: true });
    const { vault, changes } = await openVault(root, { watcherFactory: deafWatcher });
    await fs.writeFile(path.join(root, TEAM, 'pulled.md'), memoryText('Pulled', 'from a teammate', 'Their text.'));
    expect(vault.list().some((f) => f.path === `${TEAM}/pulled.md`)).toBe(false);

    await vault.notice([`${TEAM}/pulled.md`]);
    expect(vault.list().find((f) => f.path === `${TEAM}/pulled.md`)?.title).toBe('Pulled');
    expect(vault.search('teammate').map((h) => h.path)).toEqual([`${TEAM}/pulled.md`]);
    // The same file noticed again (the watcher's late event) is no second change.
    await vault.notice([`${TEAM}/pulled.md`]);
    await vault.idle();
    expect(changes.filter((c) => c.path === `${TEAM}/pulled.md`).map((c) => c.kind)).toEqual(['added']);

    await fs.rm(path.join(root, TEAM, 'pulled.md'));
    await vault.notice([`${TEAM}/pulled.md`]);
    expect(vault.list().some((f) => f.path === `${TEAM}/pulled.md`)).toBe(false);
  });
});
