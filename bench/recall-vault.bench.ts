import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { MemoryRecall } from '../main/core/auto-memory/memory-recall.js';
import { VaultMemorySource } from '../main/core/auto-memory/memory-source.js';
import { silentLogger, systemClock } from '../main/core/ports.js';
import { Vault } from '../main/core/vault/vault.js';
import { line, median, percentile, type Bench, type BenchLine } from './harness.js';
import { benchQueries, generateMemoryTexts } from './recall-rank.bench.js';

/**
 * recall-vault (docs/memory.md#recall "Reading the folder"): what recall adds to a turn in a project with
 * 1,300 and 10,000 memories, in an opened, watching vault as the app has it. The first turn, and then each
 * turn's p50/p95 (offline ranking, attach included), read through the vault's catalog; the baseline is the
 * same recall reading the folder itself (walk, stat, read), in the same process.
 */
const config = defaultMemoryConfig.autoMemory;

async function measure(recall: MemoryRecall): Promise<{ first: number; turns: number[] }> {
  const ask = async (query: string) => {
    const start = performance.now();
    await recall.recall({ query, seen: new Set(), sessionBytesUsed: 0, offline: true });
    return performance.now() - start;
  };
  const first = await ask(benchQueries[0]!);
  const turns: number[] = [];
  for (let round = 0; round < 4; round++) for (const q of benchQueries) turns.push(await ask(q));
  return { first, turns };
}

const bench: Bench = {
  name: 'recall-vault',
  async run() {
    const out: BenchLine[] = [];
    for (const n of [1_300, 10_000]) {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-recall-vault-'));
      const memoryDir = path.join(root, 'projects', '-bench-app', 'memory');
      await fs.mkdir(memoryDir, { recursive: true });
      for (const { relPath, text } of generateMemoryTexts(n)) await fs.writeFile(path.join(memoryDir, relPath), text);
      const vault = new Vault({ root, clock: systemClock, logger: silentLogger, config: () => defaultMemoryConfig, useCache: false });
      try {
        await vault.open();
        await vault.whenWatching();
        const viaVault = await measure(new MemoryRecall({ memoryDir, config, clock: systemClock, source: new VaultMemorySource(vault) }));
        const viaDisk = await measure(new MemoryRecall({ memoryDir, config, clock: systemClock }));
        const r = (x: number) => Math.round(x * 10) / 10;
        out.push(line('recall-vault', `first-turn-${n}`, 'ms', viaVault.first, viaDisk.first, { memories: n, baselineIs: 'recall reading the folder itself' }));
        out.push(
          line('recall-vault', `turn-p95-${n}`, 'ms', percentile(viaVault.turns, 95), percentile(viaDisk.turns, 95), {
            memories: n,
            p50: r(median(viaVault.turns)),
            baselineP50: r(median(viaDisk.turns)),
          }),
        );
      } finally {
        await vault.close();
        await fs.rm(root, { recursive: true, force: true });
      }
    }
    return out;
  },
};
export default bench;
