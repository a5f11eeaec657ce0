import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { line, type Bench } from './harness.js';
import { generatedVault } from './vault-fixture.js';

const child = fileURLToPath(new URL('./vault-rss-child.ts', import.meta.url));

/** docs/memory.md#vault-upkeep: resident memory (MB) of a fresh process once the 10,000-note vault is searchable and watched. */
const bench: Bench = {
  name: 'vault-rss',
  async run() {
    const root = await generatedVault();
    const out = spawnSync(process.execPath, ['--import', 'tsx', child, root], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`vault-rss child failed: ${out.stderr}`);
    const { rss } = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as { rss: number };
    return [line('vault-rss', 'rss-after-ready', 'MB', rss, null, { notes: 10_000 })];
  },
};
export default bench;
