import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compileChild } from '../test/support/compiled-child.js';
import { line, type Bench } from './harness.js';
import { generatedVault } from './vault-fixture.js';

const child = fileURLToPath(new URL('./vault-rss-child.ts', import.meta.url));

interface Sample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/**
 * docs/memory.md#vault-upkeep: resident memory (MB) of a fresh process once the 10,000-note vault is
 * searchable and watched — right then, and settled (after V8 has given back what the scan grew). The
 * child is bundled as scripts/build.mjs bundles the app: under `tsx` the process also holds every loaded
 * package's source maps (about 25 MB), which the app never loads.
 */
const bench: Bench = {
  name: 'vault-rss',
  async run() {
    const root = await generatedVault();
    const bundle = await compileChild(child);
    try {
      const out = spawnSync(process.execPath, ['--expose-gc', bundle.file, root], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`vault-rss child failed: ${out.stderr}`);
      const { ready, settled } = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as { ready: Sample; settled: Sample };
      const heap = (s: Sample) => ({ heapUsedMB: Math.round(s.heapUsed), heapTotalMB: Math.round(s.heapTotal), externalMB: Math.round(s.external) });
      return [
        line('vault-rss', 'rss-after-ready', 'MB', ready.rss, null, { notes: 10_000, ...heap(ready) }),
        line('vault-rss', 'rss-settled', 'MB', settled.rss, null, { notes: 10_000, target: '< 200 MB', ...heap(settled) }),
      ];
    } finally {
      await bundle.remove();
    }
  },
};
export default bench;
