import { line, median, type Bench } from './harness.js';
import { parseMemoryFile } from '../main/core/auto-memory/memory-frontmatter.js';
import type { MemoryFile } from '../main/core/auto-memory/memory-files.js';
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
    }
    return out;
  },
};
export default bench;
