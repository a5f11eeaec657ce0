import { monitorEventLoopDelay } from 'node:perf_hooks';
import { line, type Bench } from './harness.js';
import { healthFixVault, MEMORIES } from './health-fix-fixture.js';
import { benchVault } from './vault-fixture.js';

/**
 * Health's first pass at 10,000 memories in one project (docs/memory.md#vault-upkeep) and the longest
 * event-loop stall during it, against the longest stall of the vault's own open in the same process.
 */
const bench: Bench = {
  name: 'vault-health-10k',
  async run() {
    const { root } = await healthFixVault();
    const vault = benchVault(root, { watch: false });
    const openDelay = monitorEventLoopDelay({ resolution: 5 });
    openDelay.enable();
    await vault.open();
    openDelay.disable();
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    await vault.health();
    const firstMs = performance.now() - started;
    delay.disable();
    await vault.close();
    const extra = { memories: MEMORIES, oneProject: true };
    return [
      line('vault-health-10k', 'first-pass', 'ms', firstMs, null, extra),
      line('vault-health-10k', 'longest-stall', 'ms', delay.max / 1e6, openDelay.max / 1e6, extra),
    ];
  },
};
export default bench;
