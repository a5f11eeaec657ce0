import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { WriteBatch } from '../../../../main/core/fs/write-batch.js';
import { VaultWatcher } from '../../../../main/core/vault/vault-watcher.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

/**
 * A team pull makes a teammate's folders while it renames fsynced temp files into them and into their
 * siblings. chokidar (with the vault's options) lists a new folder and only then watches it, so a file
 * renamed in between is not reported until something else happens in that folder: without the
 * watcher's catch-up listing of new folders, the first of these bursts lost one or two files in each
 * of six runs here (load average ~15 on 2 cores); the same with chokidar alone.
 */
const ROUNDS = 4;
const FILES = 200;

async function waitUntil(done: () => boolean, ms = 8_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !done()) await new Promise((r) => setTimeout(r, 50));
}

let watcher: VaultWatcher | null = null;
afterEach(async () => {
  await watcher?.close();
  watcher = null;
});

it('reports every file a pull renames into folders it makes the same moment', async () => {
  const root = await fs.realpath(await tempDir('strata-watch-new-folder-'));
  for (let round = 0; round < ROUNDS; round++) await fs.mkdir(path.join(root, 'projects', `p${round}`, 'memory'), { recursive: true });
  const seen = new Set<string>();
  const log = testLogger();
  watcher = new VaultWatcher({ root, writeFinishMs: 200, logger: log.logger, onEvent: (e) => e.type !== 'unlink' && seen.add(e.path), onState: () => undefined });
  await watcher.start();
  const old = new Date(Date.now() - 86_400_000);
  for (let round = 0; round < ROUNDS; round++) {
    // As a pull writes: each folder made once, when its first file comes (files of other folders are
    // being staged meanwhile), each file to a temp beside it, one flush, then each renamed and its time set.
    const folders = new Map<string, Promise<unknown>>();
    const keys = Array.from({ length: FILES }, (_, i) => `projects/p${round}/memory/team/from-b/t${i % 10}/note-${i}.md`);
    const batch = new WriteBatch({ expectedFiles: keys.length });
    const staged = await Promise.all(
      keys.map(async (key) => {
        const file = path.join(root, ...key.split('/'));
        const dir = path.dirname(file);
        if (!folders.has(dir)) folders.set(dir, fs.mkdir(dir, { recursive: true }));
        await folders.get(dir);
        return { file, temp: await batch.stage(file, `note ${key}\n`) };
      }),
    );
    await batch.flush();
    await Promise.all(
      staged.map(async ({ file, temp }) => {
        await batch.commit(temp, file);
        await fs.utimes(file, old, old);
      }),
    );
    await waitUntil(() => keys.every((k) => seen.has(k)));
    expect(keys.filter((k) => !seen.has(k)), `round ${round}`).toEqual([]);
  }
  log.assertNoErrors();
}, 60_000);
