import { promises as fs } from 'node:fs';
import { line, median, type Bench } from './harness.js';
import { healthFixVault, indexPath, LISTED, MEMORIES } from './health-fix-fixture.js';
import { benchVault } from './vault-fixture.js';

const RUNS = 5;

/**
 * docs/memory.md#vault-upkeep: Health's "Fix all" of memories missing from their index with 10,000 of
 * them in one project and the user's 190-line MEMORY.md, on an open vault; then its Undo. The baseline,
 * in the same process, is one Health check: the fix must run one to know what to fix, so a ratio near 1
 * says the fix itself costs little beyond finding the problems. Each run checks MEMORY.md stays within
 * its caps and that Undo gives back the user's file byte for byte.
 */
const bench: Bench = {
  name: 'vault-health-fix',
  async run() {
    const { root, index } = await healthFixVault();
    const vault = benchVault(root, { watch: false });
    await vault.open();
    const checks: number[] = [];
    const fixes: number[] = [];
    const undos: number[] = [];
    let outcome = { added: 0, didNotFit: 0, lines: 0, chars: 0 };
    for (let i = 0; i < RUNS; i++) {
      // The check the panel ran before the click, then the one measured: the fix's own check finds the same cache.
      await vault.health();
      let started = performance.now();
      await vault.health();
      checks.push(performance.now() - started);

      started = performance.now();
      const result = await vault.healthFix('missing-from-index');
      fixes.push(performance.now() - started);
      const after = await fs.readFile(indexPath(root), 'utf8');
      outcome = { added: result.fixed, didNotFit: result.didNotFit?.count ?? 0, lines: after.replace(/\n$/, '').split('\n').length, chars: after.length };
      if (outcome.lines > 200 || outcome.chars > 25_000) throw new Error(`MEMORY.md passed its cap: ${outcome.lines} lines, ${outcome.chars} characters`);
      if (!result.undoToken) throw new Error('the fix gave no Undo');

      started = performance.now();
      await vault.healthUndo(result.undoToken);
      undos.push(performance.now() - started);
      if ((await fs.readFile(indexPath(root), 'utf8')) !== index) throw new Error('Undo did not give back the user’s MEMORY.md');
    }
    await vault.close();
    const extra = { memories: MEMORIES, missing: MEMORIES - LISTED, ...outcome };
    return [
      line('vault-health-fix', 'fix-all-missing-p50', 'ms', median(fixes), median(checks), { ...extra, baselineIs: 'one Health check, same vault' }),
      line('vault-health-fix', 'undo-p50', 'ms', median(undos), median(checks), { baselineIs: 'one Health check, same vault' }),
    ];
  },
};
export default bench;
