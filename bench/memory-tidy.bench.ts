import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { ChangesetStore, Consolidator, createConsolidationFork } from '../main/core/consolidation/index.js';
import { createLlmClient } from '../main/core/llm/index.js';
import { silentLogger } from '../main/core/ports.js';
import { scanText } from '../main/core/secrets/index.js';
import { Vault } from '../main/core/vault/vault.js';
import { startFakeAnthropic } from '../test/fakes/anthropic-server/index.js';
import { line, type Bench } from './harness.js';
import { generateTidyFixture } from './tidy-eval/fixture.js';
import { scoreTidy } from './tidy-eval/score.js';
import { scriptedTidyResponder } from './tidy-eval/scripted-tidy.js';

/**
 * memory-tidy (docs/memory-upkeep.md "Tidying memory"): one consolidation pass over a generated vault
 * of 150 memories with 10 planted duplicates, 10 relative dates and 10 contradictions, through the
 * product's Consolidator and the real SDK against the fake Messages API (scripted as the real model
 * works: grep, read, then edits and deletes). Prints what share of the planted problems the changeset
 * fixes, how many changes touch files nothing was planted in, and the pass's time. No baseline: the
 * figure to beat is the one printed.
 */
const bench: Bench = {
  name: 'memory-tidy',
  async run() {
    const fixture = generateTidyFixture();
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-tidy-')));
    const project = path.join(root, 'project');
    const memoryDir = path.join(root, 'projects', 'bench', 'memory');
    await fs.mkdir(project, { recursive: true });
    await fs.mkdir(memoryDir, { recursive: true });
    for (const m of fixture.memories) {
      const file = path.join(memoryDir, m.relPath);
      await fs.writeFile(file, m.text);
      await fs.utimes(file, m.mtimeMs / 1000, m.mtimeMs / 1000);
    }
    const fake = await startFakeAnthropic({ strict: true, respond: scriptedTidyResponder });
    const vault = new Vault({ root, clock: { now: () => Date.now() }, logger: silentLogger, config: () => defaultMemoryConfig, watch: false });
    await vault.open();
    try {
      const llm = createLlmClient({ getApiKey: async () => 'sk-bench', baseURL: fake.url, model: 'claude-bench' });
      const store = new ChangesetStore(root);
      const consolidator = new Consolidator({
        vault,
        memoryDir,
        projectDir: project,
        transcriptsDirs: [],
        config: () => defaultMemoryConfig,
        switches: () => ({ consolidation: true, autoApply: false }),
        clock: { now: () => fixture.now },
        fork: createConsolidationFork({ llm, projectDir: project, memoryDirs: [memoryDir] }),
        store,
        scan: scanText,
      });
      const start = performance.now();
      const outcome = await consolidator.runNow();
      const ms = performance.now() - start;
      if (outcome.kind !== 'proposed') throw new Error(`the pass did not propose anything: ${JSON.stringify(outcome)}`);
      const stored = (await store.load(memoryDir))!;
      const score = scoreTidy(
        fixture.labels,
        stored.items.map((i) => ({ file: path.relative(memoryDir, i.absPath), action: i.after === null ? 'deleted' : i.before === null ? 'created' : 'updated', after: i.after })),
      );
      const shape = { memories: fixture.memories.length, modelCalls: fake.requests.length };
      return [
        line('memory-tidy', 'planted-problems-fixed', 'fraction', score.found, null, {
          ...shape,
          duplicates: `${score.duplicates.fixed}/${score.duplicates.planted}`,
          dates: `${score.dates.fixed}/${score.dates.planted}`,
          contradictions: `${score.contradictions.fixed}/${score.contradictions.planted}`,
          changes: stored.items.length,
        }),
        line('memory-tidy', 'unplanted-changes', 'count', score.unplanted, null, shape),
        line('memory-tidy', 'pass-ms', 'ms', ms, null, shape),
      ];
    } finally {
      await vault.close();
      await fake.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
export default bench;
