import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, systemClock } from '../../../../main/core/ports.js';
import { faultSeamFrom, InjectedCrash, noFaults } from '../../../../main/core/team-sync/fault-seam.js';
import { emptyState, SyncStateStore } from '../../../../main/core/team-sync/sync-state.js';
import { hashText } from '../../../../main/core/team-sync/team-key.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function stateDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bases-'));
  roots.push(dir);
  return dir;
}

const open = (dir: string, fault = noFaults) => new SyncStateStore(dir, fault, silentLogger, systemClock);

describe('base texts kept by a pull', () => {
  it('are written together by the next save and read back by a later process', async () => {
    const dir = await stateDir();
    const store = open(dir);
    const state = emptyState();
    const texts = Array.from({ length: 50 }, (_, i) => `note ${i}\n`);
    for (const text of texts) {
      store.keepBase(text, hashText(text));
      state.bases[`${text.trim()}.md`] = hashText(text);
    }
    // Before the save they are readable in this process but nothing is on disk yet.
    expect(await store.getBase(hashText(texts[7]!))).toBe(texts[7]);
    expect(await fs.readdir(dir)).toEqual([]);
    await store.save(state);
    const later = open(dir);
    for (const text of texts) expect(await later.getBase(hashText(text))).toBe(text);
    // One pack for all of them, not a file each.
    expect((await fs.readdir(path.join(dir, 'bases'))).length).toBe(1);
  });

  it('are on disk before a saved state can name them: a crash at the state write leaves them readable', async () => {
    const dir = await stateDir();
    const store = open(dir, faultSeamFrom('before-state-write', 'throw'));
    const state = emptyState();
    store.keepBase('pulled\n', hashText('pulled\n'));
    state.bases['pulled.md'] = hashText('pulled\n');
    await expect(store.save(state)).rejects.toBeInstanceOf(InjectedCrash);
    expect(await open(dir).getBase(hashText('pulled\n'))).toBe('pulled\n');
  });

  it('that are no longer live are collected once they are a quarter of the pack; the live ones stay readable', async () => {
    const dir = await stateDir();
    const store = open(dir);
    const state = emptyState();
    const others = Array.from({ length: 6 }, (_, i) => `other ${i}\n`);
    for (const text of ['keep\n', 'drop\n', ...others]) {
      store.keepBase(text, hashText(text));
      state.bases[text.trim()] = hashText(text);
    }
    await store.save(state);
    // One dead text of eight waits (no rewrite of the whole pack for one edited file)…
    delete state.bases['drop'];
    await store.collectGarbage(state);
    expect(await open(dir).getBase(hashText('drop\n'))).toBe('drop\n');
    // …two of eight (a quarter) rewrite the pack without them.
    delete state.bases['other 0'];
    await store.collectGarbage(state);
    const later = open(dir);
    expect(await later.getBase(hashText('keep\n'))).toBe('keep\n');
    expect(await later.getBase(hashText('drop\n'))).toBeNull();
    expect(await later.getBase(hashText('other 0\n'))).toBeNull();
    for (const text of others.slice(1)) delete state.bases[text.trim()];
    delete state.bases['keep'];
    await store.collectGarbage(state);
    expect(await fs.readdir(path.join(dir, 'bases'))).toEqual([]);
  });

  it('from many pulls are merged into one pack by garbage collection, all still readable', async () => {
    const dir = await stateDir();
    const store = open(dir);
    const state = emptyState();
    const texts = Array.from({ length: 12 }, (_, i) => `pulled in run ${i}\n`);
    for (const text of texts) {
      store.keepBase(text, hashText(text));
      state.bases[text.trim()] = hashText(text);
      await store.save(state);
    }
    expect((await fs.readdir(path.join(dir, 'bases'))).length).toBe(12);
    await store.collectGarbage(state);
    expect((await fs.readdir(path.join(dir, 'bases'))).length).toBe(1);
    const later = open(dir);
    for (const text of texts) expect(await later.getBase(hashText(text))).toBe(text);
  });

  it('read as missing, never as wrong text, when their pack is torn', async () => {
    const dir = await stateDir();
    const store = open(dir);
    const state = emptyState();
    store.keepBase('whole\n', hashText('whole\n'));
    state.bases['whole.md'] = hashText('whole\n');
    await store.save(state);
    const [pack] = await fs.readdir(path.join(dir, 'bases'));
    const file = path.join(dir, 'bases', pack!);
    const raw = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, raw.slice(0, raw.length - 5));
    expect(await open(dir).getBase(hashText('whole\n'))).toBeNull();
    await fs.writeFile(file, raw.replace('whole', 'WRONG'));
    expect(await open(dir).getBase(hashText('whole\n'))).toBeNull();
  });
});
