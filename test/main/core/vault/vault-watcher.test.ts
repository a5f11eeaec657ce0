import { promises as fs } from 'node:fs';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault, waitFor, memoryText } from './vault-helpers.js';
import type { FileWatcher, WatcherFactory } from '../../../../main/core/vault/vault-watcher.js';
import { chokidarFactory } from '../../../../main/core/vault/vault-watcher.js';
import { sha256 } from '../../../../main/core/vault/file-scan.js';

const MEM = 'projects/p1/memory';

async function vaultRoot(): Promise<string> {
  const root = await tempDir('strata-vault-');
  await fs.mkdir(path.join(root, MEM), { recursive: true });
  await fs.writeFile(path.join(root, MEM, 'MEMORY.md'), '- [Alpha](alpha.md) — first\n');
  await fs.writeFile(path.join(root, MEM, 'alpha.md'), memoryText('Alpha', 'the first one', 'Alpha body.'));
  return root;
}

describe('Vault watcher', () => {
  it('reports external create, change, rename and delete as typed, external changes', async () => {
    const root = await vaultRoot();
    const { vault, changes } = await openVault(root);
    await fs.writeFile(path.join(root, MEM, 'beta.md'), memoryText('Beta', 'second', 'Beta body.'));
    await waitFor(() => changes.some((c) => c.kind === 'added' && c.path === `${MEM}/beta.md`), 'added');
    expect(vault.list().map((m) => m.path)).toContain(`${MEM}/beta.md`);

    await fs.writeFile(path.join(root, MEM, 'beta.md'), memoryText('Beta', 'second', 'Beta body, edited with zanzibar.'));
    await waitFor(() => changes.some((c) => c.kind === 'changed' && c.path === `${MEM}/beta.md`), 'changed');
    expect(vault.search('zanzibar').map((h) => h.path)).toEqual([`${MEM}/beta.md`]);

    await fs.rename(path.join(root, MEM, 'beta.md'), path.join(root, MEM, 'gamma.md'));
    await waitFor(() => changes.some((c) => c.kind === 'renamed'), 'renamed');
    expect(changes.find((c) => c.kind === 'renamed')).toEqual({ kind: 'renamed', path: `${MEM}/gamma.md`, from: `${MEM}/beta.md`, external: true });
    expect(changes.some((c) => c.kind === 'removed' && c.path === `${MEM}/beta.md`)).toBe(false);

    await fs.rm(path.join(root, MEM, 'gamma.md'));
    await waitFor(() => changes.some((c) => c.kind === 'removed' && c.path === `${MEM}/gamma.md`), 'removed');
    expect(changes.every((c) => c.external)).toBe(true);
    expect(vault.search('zanzibar')).toEqual([]);
    // The deleted memory is still restorable: its last content was snapshotted from the index.
    expect((await vault.listDeleted()).map((d) => d.path)).toContain(`${MEM}/gamma.md`);
  });

  it('reflects every file of a burst of 1,000 writes without stopping', async () => {
    const root = await vaultRoot();
    const { vault, changes, log } = await openVault(root);
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => fs.writeFile(path.join(root, MEM, `burst-${i}.md`), memoryText(`Burst ${i}`, `burst number ${i}`, `word${i} body`))),
    );
    const seen = () => new Set(changes.filter((c) => c.path.includes('/burst-')).map((c) => c.path)).size;
    await waitFor(() => seen() === 1000, '1,000 changes', 60_000);
    await vault.idle();
    expect(vault.list().filter((m) => m.path.includes('/burst-'))).toHaveLength(1000);
    expect(vault.search('word777').map((h) => h.path)).toEqual([`${MEM}/burst-777.md`]);
    log.assertNoErrors();
  }, 90_000);

  it('reports its own writes as not external, and an external edit right after as external', async () => {
    const root = await vaultRoot();
    const { vault, changes } = await openVault(root);
    const file = await vault.read(`${MEM}/alpha.md`);
    const saved = await vault.write(`${MEM}/alpha.md`, file.text.replace('Alpha body.', 'Own edit.'), { baseHash: file.hash });
    await waitFor(() => changes.some((c) => c.path === `${MEM}/alpha.md`), 'own change');
    expect(changes.filter((c) => c.path === `${MEM}/alpha.md`)).toEqual([{ kind: 'changed', path: `${MEM}/alpha.md`, external: false }]);

    await fs.writeFile(path.join(root, MEM, 'alpha.md'), saved.text.replace('Own edit.', 'Someone else.'));
    await waitFor(() => changes.some((c) => c.path === `${MEM}/alpha.md` && c.external), 'external change');

    await vault.createMemory({ projectSlug: 'p1', team: false, fileName: 'new.md', name: 'New', description: 'made here', type: 'user', body: 'x' });
    await waitFor(() => changes.some((c) => c.path === `${MEM}/new.md`), 'own create');
    expect(changes.find((c) => c.path === `${MEM}/new.md`)).toEqual({ kind: 'added', path: `${MEM}/new.md`, external: false });
  });

  it('refuses a save based on content that changed on disk meanwhile, writing nothing', async () => {
    const root = await vaultRoot();
    const { vault } = await openVault(root);
    const file = await vault.read(`${MEM}/alpha.md`);
    await fs.writeFile(path.join(root, MEM, 'alpha.md'), 'changed outside\n');
    await expect(vault.write(`${MEM}/alpha.md`, 'mine', { baseHash: file.hash })).rejects.toMatchObject({ code: 'conflict' });
    expect(await fs.readFile(path.join(root, MEM, 'alpha.md'), 'utf8')).toBe('changed outside\n');
    expect(sha256('changed outside\n')).not.toBe(file.hash);
  });

  it('reports a root that disappears as root-missing without crashing, and recovers when it returns', async () => {
    const root = await vaultRoot();
    const { vault } = await openVault(root);
    const states: string[] = [];
    vault.onState((s) => states.push(s));
    await fs.rm(root, { recursive: true, force: true });
    await waitFor(() => vault.state === 'root-missing', 'root-missing');
    await expect(vault.read(`${MEM}/alpha.md`)).rejects.toMatchObject({ code: 'not_found' });
    await fs.mkdir(path.join(root, MEM), { recursive: true });
    await fs.writeFile(path.join(root, MEM, 'back.md'), memoryText('Back', 'back again', 'returned'));
    await waitFor(() => vault.state === 'ready', 'ready again');
    await waitFor(() => vault.list().some((m) => m.path === `${MEM}/back.md`), 'rescan after return');
    expect(states).toEqual(['root-missing', 'ready']);
  });

  it('falls back to polling when the OS runs out of watches (ENOSPC)', async () => {
    const root = await vaultRoot();
    const calls: boolean[] = [];
    const factory: WatcherFactory = (r, options) => {
      calls.push(Boolean(options.usePolling));
      if (calls.length > 1) return chokidarFactory(r, options);
      const failing = new EventEmitter() as EventEmitter & FileWatcher;
      failing.close = async () => undefined;
      setTimeout(() => failing.emit('error', Object.assign(new Error('no watches'), { code: 'ENOSPC' })), 10);
      return failing;
    };
    const { changes, log } = await openVault(root, { watcherFactory: factory });
    expect(calls).toEqual([false, true]);
    expect(log.entries.some((e) => e.level === 'warn' && /polling/.test(e.message))).toBe(true);
    await fs.writeFile(path.join(root, MEM, 'polled.md'), memoryText('Polled', 'seen by polling', 'x'));
    await waitFor(() => changes.some((c) => c.path === `${MEM}/polled.md`), 'a change seen by the polling watcher');
  });

  it('ignores app state, atomic-write temp files, node_modules and .git', async () => {
    const root = await vaultRoot();
    const { changes } = await openVault(root);
    await fs.mkdir(path.join(root, '.strata'), { recursive: true });
    await fs.writeFile(path.join(root, '.strata', 'x.md'), 'state');
    await fs.writeFile(path.join(root, MEM, '.alpha.md.abc.tmp'), 'temp');
    await fs.mkdir(path.join(root, MEM, 'node_modules'), { recursive: true });
    await fs.writeFile(path.join(root, MEM, 'node_modules', 'y.md'), 'dep');
    await fs.writeFile(path.join(root, MEM, 'marker.md'), memoryText('Marker', 'last', 'x'));
    await waitFor(() => changes.some((c) => c.path === `${MEM}/marker.md`), 'marker');
    expect(changes.map((c) => c.path)).toEqual([`${MEM}/marker.md`]);
  });
});
