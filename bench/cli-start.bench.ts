import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { line, median, type Bench } from './harness.js';

/**
 * `cli-start`: the whole `strata` process, start to exit, for `strata --help` and `strata scan-secrets`
 * of one small file (a scanner run per file or as a git hook pays this every time), against
 * `node -e 0` — the floor no CLI on this machine can go under. Target: under 150 ms median.
 */
const RUNS = 15;
const TARGET_MS = 150;
const bin = path.resolve('bin/strata.mjs');

function wallMs(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.toString().trim()}`);
  return elapsed;
}

/** Medians of each command, run in turns (a, b, c, a, b, c…) so a change in the machine's load hits all alike. */
function interleavedMedians(commands: string[][]): number[] {
  for (const args of commands) wallMs(args); // warm the file cache
  const times = commands.map(() => [] as number[]);
  for (let run = 0; run < RUNS; run++) commands.forEach((args, i) => times[i]!.push(wallMs(args)));
  return times.map(median);
}

const bench: Bench = {
  name: 'cli-start',
  async run() {
    // The CLI runs from dist/: build its bundle so the numbers are this tree's.
    execFileSync(process.execPath, ['scripts/build.mjs', 'node'], { stdio: 'inherit' });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-cli-start-'));
    try {
      const note = path.join(dir, 'note.md');
      await fs.writeFile(note, '# A note\n\nNothing secret here.\n');
      const [baseline, help, scan] = interleavedMedians([['-e', '0'], [bin, '--help'], [bin, 'scan-secrets', note]]) as [number, number, number];
      const extra = { runs: RUNS, targetMs: TARGET_MS };
      return [
        line('cli-start', 'help-median', 'ms', help, baseline, { ...extra, command: 'strata --help', baselineCommand: 'node -e 0', underTarget: help < TARGET_MS }),
        line('cli-start', 'scan-secrets-one-file-median', 'ms', scan, baseline, {
          ...extra,
          command: 'strata scan-secrets FILE',
          baselineCommand: 'node -e 0',
          underTarget: scan < TARGET_MS,
        }),
        // What scanning adds to the CLI's own start (loading the rules, reading the vault pointer and the
        // file): the part this command owns, steadier than either median on a loaded machine.
        line('cli-start', 'scan-secrets-over-help-median', 'ms', Math.max(0, scan - help), null, { runs: RUNS, command: 'strata scan-secrets FILE minus strata --help' }),
      ];
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
