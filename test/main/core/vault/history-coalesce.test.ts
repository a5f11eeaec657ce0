import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { fakeClock, openVault, memoryText } from './vault-helpers.js';
import { AUTOSAVE_REASON, AUTOSAVE_SNAPSHOT_INTERVAL_MS } from '../../../../main/core/vault/history-coalesce.js';

const FILE = 'projects/p1/memory/alpha.md';

async function vaultWithAlpha() {
  const root = await tempDir('strata-coalesce-');
  await fs.mkdir(path.join(root, 'projects/p1/memory'), { recursive: true });
  await fs.writeFile(path.join(root, FILE), memoryText('Alpha', 'first', 'v0'));
  const clock = fakeClock();
  const { vault } = await openVault(root, { clock });
  return { vault, clock, root };
}

/** Writes `count` autosaves a second apart, each based on the one before. */
async function typeFor(vault: Awaited<ReturnType<typeof vaultWithAlpha>>['vault'], clock: ReturnType<typeof fakeClock>, count: number, tag: string) {
  let file = await vault.read(FILE);
  for (let i = 1; i <= count; i++) {
    clock.set(clock.now() + 1_000);
    file = await vault.write(FILE, file.text.replace(/\n[^\n]*\n$/, `\n${tag} ${i}\n`), { baseHash: file.hash, reason: AUTOSAVE_REASON });
  }
  return file;
}

describe('History: a burst of autosaves is one entry', () => {
  it('keeps only the version from before the burst', async () => {
    const { vault, clock } = await vaultWithAlpha();
    const before = await vault.read(FILE);
    await typeFor(vault, clock, 12, 'typing');
    const timeline = await vault.timeline(FILE);
    expect(timeline.map((v) => v.hash)).toEqual([before.hash]);
    expect(timeline[0]!.reason).toBe(AUTOSAVE_REASON);
  });

  it('takes another snapshot after five minutes of continuous typing, and after any other writer', async () => {
    const { vault, clock } = await vaultWithAlpha();
    await typeFor(vault, clock, 3, 'first');
    clock.set(clock.now() + AUTOSAVE_SNAPSHOT_INTERVAL_MS);
    await typeFor(vault, clock, 2, 'later');
    expect((await vault.timeline(FILE)).length).toBe(2);
    // The agent (any reason but autosave) writes in between: its version is never folded in.
    const current = await vault.read(FILE);
    const agent = await vault.write(FILE, current.text.replace(/later 2/, 'agent'), { baseHash: current.hash, reason: 'agent' });
    await typeFor(vault, clock, 2, 'again');
    const timeline = await vault.timeline(FILE);
    expect(timeline.length).toBe(4);
    expect(timeline[0]!.hash).toBe(agent.hash);
  });

  it('does not fold plain saves (not autosaves) together', async () => {
    const { vault, clock } = await vaultWithAlpha();
    let file = await vault.read(FILE);
    for (const v of ['v1', 'v2', 'v3']) {
      clock.set(clock.now() + 1_000);
      file = await vault.write(FILE, file.text.replace(/v\d/, v), { baseHash: file.hash });
    }
    expect((await vault.timeline(FILE)).length).toBe(3);
  });
});
