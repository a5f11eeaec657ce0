import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultMemoryConfig } from '../common/config.js';
import { MemoryRecall } from '../main/core/auto-memory/memory-recall.js';
import { sideQueryOf } from '../main/core/chat/agent-setup.js';
import { createLlmClient } from '../main/core/llm/index.js';
import { startFakeAnthropic } from '../test/fakes/anthropic-server/index.js';
import { writeMemoryFolder } from './memory-folder.js';
import { line, median, percentile, type Bench, type BenchLine } from './harness.js';
import { loadConversations, locomoDir } from './recall-locomo/dataset.js';
import { OracleSelector } from './recall-locomo/oracle.js';
import { PlainBm25 } from './recall-locomo/plain-bm25.js';
import { ceiling, scoreEvidence, type EvidenceScore } from './recall-locomo/score.js';

/**
 * recall-locomo (docs/memory.md#recall "Measured"): evidence Recall@5 on LoCoMo conversations by the method
 * of the data set's README, through the product's MemoryRecall (the code path a chat turn uses) over real
 * files in a temp folder: offline (the local ranking), and through the model path with an oracle selector
 * (the real SDK against the fake Messages API; it picks the best files among those the prompt names), with
 * the ceiling and a plain Okapi BM25 over the same files as baselines. The data never enters the
 * repository (CC BY-NC 4.0): without it the bench says so and skips.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = defaultMemoryConfig.autoMemory;

const round = (n: number) => Math.round(n * 1000) / 1000;
const byCategory = (s: EvidenceScore) => Object.fromEntries(Object.entries(s.byCategory).map(([k, v]) => [k, round(v.recall)]));

const bench: Bench = {
  name: 'recall-locomo',
  async run() {
    const dir = locomoDir(repoRoot);
    const conversations = loadConversations(dir);
    if (!conversations) return { skipped: `no LoCoMo data at ${dir} (set STRATA_LOCOMO_DIR)` };
    const oracle = new OracleSelector();
    const fake = await startFakeAnthropic({ respond: oracle.respond });
    const offline = new Map<string, string[]>();
    const model = new Map<string, string[]>();
    const bm25 = new Map<string, string[]>();
    const ms: number[] = [];
    const folders: string[] = [];
    try {
      const small = createLlmClient({ getApiKey: async () => 'sk-bench', baseURL: fake.url, model: 'claude-bench-small', maxTokens: 1024 });
      for (const c of conversations) {
        const memoryDir = await writeMemoryFolder('strata-bench-locomo-', c.memories);
        folders.push(memoryDir);
        const clock = { now: () => c.lastSessionMs };
        const local = new MemoryRecall({ memoryDir, config, clock });
        const withModel = new MemoryRecall({ memoryDir, config, clock, sideQuery: sideQueryOf(small) });
        const plain = new PlainBm25(c.memories);
        // The first query builds the index: a turn after the app has been open, not a cold start.
        await local.recall({ query: 'warm up the index', seen: new Set(), sessionBytesUsed: 0, offline: true });
        for (const q of c.questions) {
          const ask = { query: q.question, seen: new Set<string>(), sessionBytesUsed: 0 };
          const t0 = performance.now();
          const r = await local.recall({ ...ask, offline: true });
          ms.push(performance.now() - t0);
          offline.set(q.id, r.memories.map((m) => m.relPath));
          oracle.ask(c, q);
          model.set(q.id, (await withModel.recall(ask)).memories.map((m) => m.relPath));
          bm25.set(q.id, plain.rank(q.question, 5));
        }
      }
    } finally {
      await fake.close();
      await Promise.all(folders.map((f) => fs.rm(f, { recursive: true, force: true })));
    }
    const shape = { conversations: conversations.length, memories: conversations.reduce((n, c) => n + c.memories.length, 0), questions: offline.size };
    const best = ceiling(conversations);
    const o = scoreEvidence(conversations, offline);
    const m = scoreEvidence(conversations, model);
    const b = scoreEvidence(conversations, bm25);
    const out: BenchLine[] = [
      line('recall-locomo', 'offline-recall@5', 'fraction', o.recall, b.recall, { ...shape, hit5: round(o.hit), byCategory: byCategory(o), baselineIs: 'plain Okapi BM25 (k1 1.2, b 0.75)' }),
      line('recall-locomo', 'model-oracle-recall@5', 'fraction', m.recall, best.recall, { hit5: round(m.hit), byCategory: byCategory(m), ofCeiling: round(m.recall / best.recall), baselineIs: 'the ceiling' }),
      line('recall-locomo', 'selector-prompt', 'tokens', median(oracle.promptTokens), null, { p95: percentile(oracle.promptTokens, 95), max: Math.max(...oracle.promptTokens), filesListed: median(oracle.listed) }),
      line('recall-locomo', 'offline-query-p50', 'ms', median(ms), null, { p95: round(percentile(ms, 95)) }),
      line('recall-locomo', 'ceiling', 'fraction', best.recall, null, { byCategory: byCategory(best) }),
      line('recall-locomo', 'plain-bm25-recall@5', 'fraction', b.recall, null, { hit5: round(b.hit), byCategory: byCategory(b) }),
    ];
    return out;
  },
};
export default bench;
