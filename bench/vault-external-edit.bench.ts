import { promises as fs } from 'node:fs';
import path from 'node:path';
import { line, median, type Bench } from './harness.js';
import { benchVault, generatedVault } from './vault-fixture.js';

const RUNS = 20;

/**
 * Issue 4: a file written on disk by another program → the engine's change event, ms (median of 20).
 * The lead extends it to the host client; this measures the engine's part (awaitWriteFinish included).
 */
const bench: Bench = {
  name: 'vault-external-edit',
  async run() {
    const root = await generatedVault();
    const vault = benchVault(root, { watch: true, cacheSaveDelayMs: 60_000 });
    await vault.open();
    await vault.whenWatching();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const rel = `projects/-home-user-project-${i}/memory/note-${i}.md`;
      const file = path.join(root, ...rel.split('/'));
      const original = await fs.readFile(file, 'utf8');
      const seen = new Promise<number>((resolve) => {
        const off = vault.onChanges((changes) => {
          if (changes.some((c) => c.path === rel && c.external)) {
            off();
            resolve(performance.now());
          }
        });
      });
      const started = performance.now();
      await fs.writeFile(file, `${original}\nedited ${i}\n`);
      times.push((await seen) - started);
      await fs.writeFile(file, original);
      await new Promise((r) => setTimeout(r, 400));
    }
    await vault.close();
    return [line('vault-external-edit', 'disk-to-engine-event', 'ms', median(times), null, { runs: RUNS })];
  },
};
export default bench;
