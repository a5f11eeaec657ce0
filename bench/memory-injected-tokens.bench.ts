import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { line, type Bench } from './harness.js';
import { defaultMemoryConfig } from '../common/config.js';
import { MemoryRecall } from '../main/core/auto-memory/memory-recall.js';
import { MemoryStore } from '../main/core/auto-memory/memory-store.js';
import { renderRecalled } from '../main/core/auto-memory/recall-attach.js';
import { formatIndexLine } from '../main/core/auto-memory/memory-index.js';
import { parseMemoryFile } from '../common/memory-file/index.js';
import { estimateTextTokens } from '../main/core/llm/tokens.js';
import { benchQueries, generateMemoryTexts } from './recall-rank.bench.js';

const N = 500;

/**
 * Memory tokens a turn carries: MEMORY.md (truncated at its caps) plus the recalled files (docs/memory.md#auto-memory, docs/memory.md#injection-order),
 * against the baseline of loading every memory file into the context.
 */
const bench: Bench = {
  name: 'memory-injected-tokens',
  async run() {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-mem-'));
    try {
      const texts = generateMemoryTexts(N, 11);
      const index: string[] = [];
      for (const { relPath, text } of texts) {
        await fs.writeFile(path.join(dir, relPath), text);
        const m = parseMemoryFile(text);
        index.push(formatIndexLine(m.name ?? relPath, relPath, m.description ?? ''));
      }
      await fs.writeFile(path.join(dir, 'MEMORY.md'), `${index.join('\n')}\n`);
      const config = defaultMemoryConfig.autoMemory;
      const store = new MemoryStore(dir, config);
      const indexTokens = estimateTextTokens((await store.loadIndexForPrompt()).content);
      const recall = new MemoryRecall({ memoryDir: dir, config, clock: { now: () => Date.now() } });
      let recalledTokens = 0;
      for (const query of benchQueries) {
        const result = await recall.recall({ query, seen: new Set(), sessionBytesUsed: 0, offline: true });
        recalledTokens += result.memories.reduce((sum, m) => sum + estimateTextTokens(renderRecalled(m)), 0);
      }
      const perTurn = indexTokens + recalledTokens / benchQueries.length;
      const everything = texts.reduce((sum, t) => sum + estimateTextTokens(t.text), 0);
      return [
        line('memory-injected-tokens', 'memory-tokens-per-turn', 'tokens', perTurn, everything, {
          memories: N,
          indexTokens,
          recalledTokensPerTurn: Math.round(recalledTokens / benchQueries.length),
        }),
      ];
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  },
};
export default bench;
