import { line, median, type Bench } from './harness.js';
import { benchVault, dropCache, generatedVault } from './vault-fixture.js';

const RUNS = 3;

/** docs/memory.md#vault-upkeep: cold start (no search cache) to the first search answered, ms; and the same from the cache. */
const bench: Bench = {
  name: 'vault-ready',
  async run() {
    const root = await generatedVault();
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      for (const useCold of [true, false]) {
        if (useCold) await dropCache(root);
        const started = performance.now();
        const vault = benchVault(root, { watch: true, cacheSaveDelayMs: 60_000 });
        await vault.open();
        if (vault.search('kalo').length === 0) throw new Error('the generated vault gave no hits');
        (useCold ? cold : warm).push(performance.now() - started);
        await vault.whenWatching();
        await vault.close();
      }
    }
    return [
      line('vault-ready', 'cold-start-to-searchable', 'ms', median(cold), null, { notes: 10_000 }),
      line('vault-ready', 'cached-start-to-searchable', 'ms', median(warm), null, { notes: 10_000 }),
    ];
  },
};
export default bench;
