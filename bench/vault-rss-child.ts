// Run by vault-rss.bench.ts in its own process, so other benches' memory is not counted.
import { benchVault } from './vault-fixture.js';

const vault = benchVault(process.argv[2]!, { watch: true, cacheSaveDelayMs: 60_000 });
await vault.open();
await vault.whenWatching();
vault.search('kalo');
globalThis.gc?.();
process.stdout.write(`${JSON.stringify({ rss: process.memoryUsage().rss / 1024 / 1024 })}\n`);
await vault.close();
