import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { line, median, type Bench } from './harness.js';
import { parseMemoryFile } from '../common/memory-file/index.js';
import type { MemoryFile } from '../main/core/auto-memory/memory-files.js';
import { MemoryRecall } from '../main/core/auto-memory/memory-recall.js';
import { MemoryRanker } from '../main/core/auto-memory/recall-rank.js';

const TOPICS = [
  ['checkout', 'payment', 'stripe', 'refund', 'invoice'],
  ['deploy', 'release', 'rollback', 'canary', 'helm'],
  ['test', 'fixture', 'postgres', 'integration', 'flaky'],
  ['search', 'elasticsearch', 'index', 'ranking', 'synonym'],
  ['frontend', 'react', 'form', 'accessibility', 'keyboard'],
  ['incident', 'oncall', 'pager', 'runbook', 'postmortem'],
  ['logging', 'metrics', 'grafana', 'sentry', 'trace'],
  ['migration', 'schema', 'index', 'dba', 'backfill'],
];
const TYPES = ['user', 'feedback', 'project', 'reference'];
const FILLER = 'the team agreed this after a long discussion and it applies to every service we own unless noted'.split(' ');

/** A deterministic pseudo-random generator so every run ranks the same corpus. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** `n` realistic-looking memory files (frontmatter + a few sentences) with a topic mix, as file text. */
export function generateMemoryTexts(n: number, seed = 7): { relPath: string; text: string }[] {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const topic = pick(TOPICS);
    const type = pick(TYPES);
    const a = pick(topic);
    const b = pick(topic);
    const words = Array.from({ length: 40 + Math.floor(rand() * 80) }, () => (rand() < 0.3 ? pick(topic) : pick(FILLER)));
    const body = `${a} ${b} rule number ${i}: ${words.join(' ')}.\n\n**Why:** ${pick(FILLER)} ${a}.\n\n**How to apply:** ${words.slice(0, 12).join(' ')}.`;
    const text = `---\nname: ${a} ${b} ${i}\ndescription: how we handle ${a} and ${b} in case ${i}\ntype: ${type}\n---\n\n${body}\n`;
    return { relPath: `${type}_${a}_${i}.md`, text };
  });
}

export function generateMemoryFiles(n: number): MemoryFile[] {
  return generateMemoryTexts(n).map(({ relPath, text }, i) => ({
    ...parseMemoryFile(text),
    relPath,
    absPath: `/bench/memory/${relPath}`,
    mtimeMs: 1_700_000_000_000 + i,
    size: text.length,
    text,
  }));
}

export const benchQueries = [
  'how do we roll back a canary deploy',
  'stripe refund for an invoice',
  'flaky postgres integration test fixture',
  'elasticsearch synonym ranking',
  'keyboard accessibility of the react form',
  'which runbook for the pager incident',
  'sentry trace and grafana metrics',
  'backfill after a schema migration',
];

/** Baseline: scan every file for every query word (lower-cased substring), score by hits, take the top 5. */
function naiveRank(files: MemoryFile[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w.length > 2);
  return files
    .map((f) => {
      const text = f.text.toLowerCase();
      return { id: f.relPath, score: words.reduce((s, w) => s + (text.includes(w) ? 1 : 0), 0) };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, 5)
    .map((r) => r.id);
}

function msPerQuery(fn: (q: string) => unknown): number {
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const start = performance.now();
    for (const q of benchQueries) fn(q);
    rounds.push((performance.now() - start) / benchQueries.length);
  }
  return median(rounds);
}

/**
 * A whole offline recall per turn over a real folder of `n` files: scan, index, rank, attach. `kept` is
 * one MemoryRecall across turns (as the chat keeps it, one file edited between turns); the baseline is a
 * new MemoryRecall per turn, which scans every file and builds the index each time.
 */
async function turnMs(n: number): Promise<{ kept: number; fresh: number; firstTurn: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-recall-'));
  try {
    const texts = generateMemoryTexts(n);
    await Promise.all(texts.map(({ relPath, text }) => fs.writeFile(path.join(dir, relPath), text)));
    const options = { memoryDir: dir, config: defaultMemoryConfig.autoMemory, clock: { now: () => Date.now() } };
    const ask = (recall: MemoryRecall, query: string) => recall.recall({ query, seen: new Set(), sessionBytesUsed: 0, offline: true });
    const time = async (fn: () => Promise<unknown>) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    const kept = new MemoryRecall(options);
    const firstTurn = await time(() => ask(kept, benchQueries[0]!));
    const keptRounds: number[] = [];
    const freshRounds: number[] = [];
    for (let r = 0; r < 5; r++) {
      for (const [i, q] of benchQueries.entries()) {
        // The user or the agent changed one memory since the last turn.
        const edited = texts[(r * benchQueries.length + i) % texts.length]!;
        await fs.writeFile(path.join(dir, edited.relPath), `${edited.text}\nEdited in round ${r}.\n`);
        keptRounds.push(await time(() => ask(kept, q)));
        freshRounds.push(await time(() => ask(new MemoryRecall(options), q)));
      }
    }
    return { kept: median(keptRounds), fresh: median(freshRounds), firstTurn };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const bench: Bench = {
  name: 'recall-rank',
  async run() {
    const out = [];
    for (const n of [500, 5_000]) {
      const files = generateMemoryFiles(n);
      const buildStart = performance.now();
      const ranker = new MemoryRanker(files);
      const buildMs = performance.now() - buildStart;
      const ranked = msPerQuery((q) => ranker.rank(q, 5));
      const naive = msPerQuery((q) => naiveRank(files, q));
      out.push(line('recall-rank', `offline-rank-${n}`, 'ms', ranked, naive, { memories: n, indexBuildMs: Math.round(buildMs * 10) / 10 }));
      const turn = await turnMs(n);
      out.push(
        line('recall-rank', `offline-recall-turn-${n}`, 'ms', turn.kept, turn.fresh, {
          memories: n,
          includes: 'scan+build+rank+attach',
          firstTurnMs: Math.round(turn.firstTurn * 10) / 10,
        }),
      );
    }
    return out;
  },
};
export default bench;
