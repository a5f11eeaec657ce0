import { readFileSync } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { walkVault } from '../main/core/vault/file-scan.js';
import { line, median, type Bench } from './harness.js';
import { benchVault, dropCache, generatedVault } from './vault-fixture.js';

const RUNS = 3;

/**
 * The baseline: the same vault made searchable the plain way, in the same process — walk it, read
 * every file, `new MiniSearch(options).addAll(docs)` with a popular full-text library (the engine vault
 * search used before the shared term index) — with nothing cached and nothing tuned.
 */
async function plainBuild(root: string): Promise<number> {
  const started = performance.now();
  const docs = (await walkVault(root)).map((rel) => ({ path: rel, title: path.basename(rel), text: readFileSync(path.join(root, rel), 'utf8') }));
  const mini = new MiniSearch({ idField: 'path', fields: ['title', 'text'], storeFields: [] });
  mini.addAll(docs);
  if (mini.search('kalo').length === 0) throw new Error('the generated vault gave no hits');
  return performance.now() - started;
}

/**
 * docs/memory.md#vault-upkeep: cold start (no search cache) to the first search answered, ms; and the
 * same from the cache. Both against the plain public-API build of the same vault, run in turn with them.
 */
const bench: Bench = {
  name: 'vault-ready',
  async run() {
    const root = await generatedVault();
    const cold: number[] = [];
    const warm: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plain.push(await plainBuild(root));
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
    const extra = { notes: 10_000, baselineTool: 'walk + read + MiniSearch addAll' };
    return [
      line('vault-ready', 'cold-start-to-searchable', 'ms', median(cold), median(plain), extra),
      line('vault-ready', 'cached-start-to-searchable', 'ms', median(warm), median(plain), extra),
    ];
  },
};
export default bench;
