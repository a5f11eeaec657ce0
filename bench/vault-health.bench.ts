import { line, percentile, type Bench } from './harness.js';
import { benchVault, generatedVault } from './vault-fixture.js';

const RUNS = 15;

/** Vault issue (Health < 500 ms at 10,000 notes): the engine's part, `vault.health()` on an open vault. */
const bench: Bench = {
  name: 'vault-health',
  async run() {
    const root = await generatedVault();
    const vault = benchVault(root, { watch: false });
    await vault.open();
    const first = performance.now();
    await vault.health();
    const firstMs = performance.now() - first;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await vault.health();
      times.push(performance.now() - started);
    }
    await vault.close();
    const extra = { target: 500, notes: 10_000 };
    return [
      line('vault-health', 'p50', 'ms', percentile(times, 50), null, extra),
      line('vault-health', 'first-after-open', 'ms', firstMs, null, extra),
    ];
  },
};
export default bench;
