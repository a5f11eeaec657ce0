import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { fakeClock, memoryText, openVault, waitFor } from './vault-helpers.js';
import { noteChangeAuthor } from '../../../../main/core/vault/change-authors.js';

const MEM = 'projects/p1/memory';

async function root(): Promise<string> {
  const r = await tempDir('strata-history-authors-');
  await fs.mkdir(path.join(r, MEM), { recursive: true });
  await fs.writeFile(path.join(r, MEM, 'alpha.md'), memoryText('Alpha', 'first', 'v1'));
  return r;
}

describe('History says who made each version', () => {
  it('names you, someone outside Strata, the agent in its conversation, and a restore', async () => {
    const r = await root();
    const clock = fakeClock(Date.now());
    const { vault, changes } = await openVault(r, { clock });
    const rel = `${MEM}/alpha.md`;
    const v1 = await vault.read(rel);
    const mine = await vault.write(rel, v1.text.replace('v1', 'mine'), { baseHash: v1.hash });
    clock.set(clock.now() + 5 * 60_000);
    await fs.writeFile(path.join(r, MEM, 'alpha.md'), memoryText('Alpha', 'first', 'outside'));
    await waitFor(() => changes.some((c) => c.path === rel && c.external), 'the outside edit');
    await vault.idle();
    clock.set(clock.now() + 5 * 60_000);
    const outside = await vault.read(rel);
    noteChangeAuthor(path.join(r, MEM, 'alpha.md'), { kind: 'agent', sessionId: 's-1', label: 'Plan the trip' });
    await fs.writeFile(path.join(r, MEM, 'alpha.md'), memoryText('Alpha', 'first', 'agent'));
    await waitFor(() => changes.filter((c) => c.path === rel && c.external).length >= 2, 'the agent edit');
    await vault.idle();
    clock.set(clock.now() + 5 * 60_000);
    const agent = await vault.read(rel);
    await vault.restore(rel, mine.hash);
    const timeline = await vault.timeline(rel);
    expect(timeline.map((v) => [v.hash, v.author ?? null])).toEqual([
      [agent.hash, { kind: 'agent', sessionId: 's-1', label: 'Plan the trip' }],
      [outside.hash, { kind: 'outside' }],
      [mine.hash, { kind: 'you' }],
      // What was there before Strata knew the file: nobody to name.
      [v1.hash, null],
    ]);
    const restored = await vault.read(rel);
    await vault.write(rel, restored.text.replace('mine', 'after'), { baseHash: restored.hash, reason: 'rename' });
    expect((await vault.timeline(rel))[0]!.author).toEqual({ kind: 'restore' });
    expect(await vault.currentAuthor(rel)).toMatchObject({ author: { kind: 'you' } });
  });

  it('folds a burst of autosaves into one entry, and keeps a version after a pause', async () => {
    const r = await root();
    const clock = fakeClock(Date.now());
    const { vault } = await openVault(r, { clock });
    const rel = `${MEM}/alpha.md`;
    let file = await vault.read(rel);
    const original = file.hash;
    for (const word of ['a', 'ab', 'abc', 'abcd']) {
      clock.set(clock.now() + 2_000);
      file = await vault.write(rel, file.text.replace(/v1|a\w*$/m, word), { baseHash: file.hash });
    }
    expect((await vault.timeline(rel)).map((v) => v.hash)).toEqual([original]);
    const burstEnd = file.hash;
    clock.set(clock.now() + 120_000);
    await vault.write(rel, file.text.replace('abcd', 'later'), { baseHash: file.hash });
    expect((await vault.timeline(rel)).map((v) => [v.hash, v.author?.kind])).toEqual([
      [burstEnd, 'you'],
      [original, undefined],
    ]);
  });
});
