import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { line, median, type Bench } from './harness.js';
import { benchDevice, benchRoot, FILES, REPO, startBenchServer, writeNotes } from './sync-bench-setup.js';

const RUNS = 3;

/**
 * Writes back what earlier steps left in the page cache (the seed's 5,000 files, the baseline's), so
 * each timed step pays only for its own writes: otherwise the kernel flushes the baseline's files while
 * the next pull runs, and charges them to it.
 */
function settleDisk(): void {
  execFileSync('sync');
}

/**
 * docs/memory.md#team-sync: ms for a fresh device's first pull of 5,000 files. Baseline: the same GET with every entry
 * written by a plain `fs.writeFile` (no base, no atomic rename, no state), the floor any client pays.
 */
const bench: Bench = {
  name: 'sync-first-pull',
  async run() {
    const root = await benchRoot('strata-bench-pull-');
    const server = await startBenchServer(root);
    if (!server) return { skipped: 'server/ is not available' };
    try {
      const seed = await benchDevice(root, 'seed', server);
      await writeNotes(seed.teamDir);
      const seeded = await seed.engine.sync();
      if (seeded.error) throw new Error(seeded.error.message);

      const pulls: number[] = [];
      const plain: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const device = await benchDevice(root, `pull-${run}`, server);
        settleDisk();
        const started = performance.now();
        const report = await device.engine.pull();
        pulls.push(performance.now() - started);
        if (report.error || report.pulled.length !== FILES) throw new Error(`pull got ${report.pulled.length} files`);

        const dir = path.join(root, `plain-${run}`);
        await fs.mkdir(dir, { recursive: true });
        settleDisk();
        const t0 = performance.now();
        const response = await fetch(`${server.url}/api/team_memory?repo=${encodeURIComponent(REPO)}`, { headers: { authorization: `Bearer ${server.token}` } });
        const body = (await response.json()) as { content: { entries: Record<string, string> } };
        await Promise.all(Object.entries(body.content.entries).map(([key, text]) => fs.writeFile(path.join(dir, key), text)));
        plain.push(performance.now() - t0);
      }
      return [line('sync-first-pull', 'first-pull-5000-files', 'ms', median(pulls), median(plain), { files: FILES, runs: RUNS })];
    } finally {
      await server.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};

export default bench;
