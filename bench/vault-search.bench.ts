import { spawnSync } from 'node:child_process';
import { line, percentile, type Bench } from './harness.js';
import type { Vault } from '../main/core/vault/vault.js';
import { benchVault, generatedVault, rng, vocabulary } from './vault-fixture.js';

const QUERIES = 200;

function hasRg(): boolean {
  return spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** docs/memory.md#vault-upkeep: p95 ms of one search over the 10,000-note vault; baseline `rg -il` over the same folder. */
const bench: Bench = {
  name: 'vault-search',
  async run() {
    const root = await generatedVault();
    const words = vocabulary();
    const random = rng(99);
    const queries = Array.from({ length: QUERIES }, (_, i) => {
      const w = words[Math.floor(random() * words.length)]!;
      return i % 4 === 3 ? `${w} ${words[Math.floor(random() * words.length)]!}` : w;
    });
    const timeAll = (vault: Vault) =>
      queries.map((q) => {
        const started = performance.now();
        vault.search(q, { limit: 20 });
        return performance.now() - started;
      });
    // The figure of the target: searching an open vault, a few searches after opening.
    let vault = benchVault(root, { watch: false });
    await vault.open();
    for (const q of queries.slice(0, 20)) vault.search(q);
    const times = timeAll(vault);
    await vault.close();
    // For the record: the same queries in the very turn the vault became searchable.
    vault = benchVault(root, { watch: false });
    await vault.open();
    const unsettled = timeAll(vault);
    await vault.close();
    let baseline: number | null = null;
    if (hasRg()) {
      const rgTimes = queries.map((q) => {
        const started = performance.now();
        spawnSync('rg', ['-i', '-l', '-F', q.split(' ')[0]!, root], { stdio: 'ignore' });
        return performance.now() - started;
      });
      baseline = percentile(rgTimes, 95);
    }
    const extra = { queries: QUERIES, baselineTool: baseline === null ? null : 'rg' };
    return [
      line('vault-search', 'p95', 'ms', percentile(times, 95), baseline, extra),
      line('vault-search', 'p95-right-after-open', 'ms', percentile(unsettled, 95), baseline, extra),
    ];
  },
};
export default bench;
