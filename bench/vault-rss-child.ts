// Run by vault-rss.bench.ts in its own process (bundled, as the app ships), so other benches' memory is not counted.
import { setTimeout as sleep } from 'node:timers/promises';
import { benchVault } from './vault-fixture.js';

/** Resident and heap figures in MB, after a full collection. */
function sample() {
  globalThis.gc?.();
  const m = process.memoryUsage();
  const mb = (n: number) => n / 1024 / 1024;
  return { rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external) };
}

const vault = benchVault(process.argv[2]!, { watch: true, cacheSaveDelayMs: 60_000 });
await vault.open();
await vault.whenWatching();
vault.search('kalo');
const ready = sample();
// V8 gives back the young generation it grew to for the scan only once allocation has been quiet for a
// few seconds (its memory reducer, some 10 s here): what a user's app holds while it waits is the figure
// after that — once the heap holds little more than it uses, and resident memory stopped moving.
let settled = ready;
for (let waited = 0, steady = 0; waited < 40 && steady < 3; waited++) {
  await sleep(1_000);
  const next = sample();
  const given = next.heapTotal - next.heapUsed < 16;
  steady = given && Math.abs(next.rss - settled.rss) < 1 ? steady + 1 : 0;
  settled = next;
}
process.stdout.write(`${JSON.stringify({ ready, settled })}\n`);
await vault.close();
