import { analyze } from '../search/index.js';
import type { ScoredDoc, TermIndex, WeightedTerm } from '../search/index.js';
import type { MemoryFile } from './memory-files.js';

/**
 * The steps of recall's local ranking after BM25F (docs/memory.md#recall "Local ranking"). Each was kept
 * because it raised evidence Recall@5 on public conversations (`npm run bench -- recall-locomo`) without
 * lowering the `recall-quality` bench; the figures are in the docs.
 */

export interface Candidate {
  relPath: string;
  score: number;
  mtimeMs: number;
  /** Query terms (analyzed) this memory holds: typed ones first, then second-hop ones. */
  matched: string[];
  typedMatched: number;
  /** Pairs of typed terms found side by side. */
  phrases: [string, string][];
  /** What memories written together with it added to its score. */
  together: number;
  newer: boolean;
}

/**
 * Second hop (pseudo-relevance feedback): the words that the first results share and that are rare in
 * the folder join the query at a fraction of a typed word's weight. A question that needs two memories
 * ("what did she do after the move?") often names only the first; its results name the second.
 */
const HOP_DOCS = 5;
const HOP_TERMS = 10;
const HOP_WEIGHT = 0.3;

export function secondHopTerms(index: TermIndex, first: readonly ScoredDoc[], typed: ReadonlyMap<string, string>): WeightedTerm[] {
  const top = first.slice(0, HOP_DOCS);
  if (top.length === 0) return [];
  const best = top[0]!.score;
  const weight = new Map<string, number>();
  for (const d of top) {
    for (const term of index.termsOf(d.id)) if (!typed.has(term)) weight.set(term, (weight.get(term) ?? 0) + d.score / best);
  }
  const ranked = [...weight].map(([term, w]) => ({ term, w: w * index.idf(term) })).sort((a, b) => b.w - a.w || (a.term < b.term ? -1 : 1));
  const picked = ranked.slice(0, HOP_TERMS);
  const max = picked[0]?.w || 1;
  return picked.map(({ term, w }) => ({ term, weight: (HOP_WEIGHT * w) / max }));
}

/**
 * Query words side by side in a memory ("support group", "dance studio") mean more than the same words
 * apart: each such pair raises the score by a fifth. Looked for in the best few only (it reads the text).
 */
const PHRASE_DOCS = 60;
const PHRASE_GAIN = 0.2;

export function rewardPhrases(candidates: Candidate[], typed: readonly string[], fileOf: (c: Candidate) => MemoryFile): void {
  if (typed.length < 2) return;
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < typed.length; i++) pairs.add(`${typed[i]} ${typed[i + 1]}`);
  for (const c of candidates.slice(0, PHRASE_DOCS)) {
    if (c.typedMatched < 2) continue;
    const file = fileOf(c);
    const found = new Set<string>();
    for (const text of [file.description ?? '', file.body]) {
      const t = analyze(text);
      for (let i = 0; i + 1 < t.length; i++) {
        const pair = `${t[i]} ${t[i + 1]}`;
        if (pairs.has(pair)) found.add(pair);
      }
    }
    if (found.size === 0) continue;
    c.phrases = [...found].map((p) => p.split(' ') as [string, string]);
    c.score *= 1 + PHRASE_GAIN * found.size;
  }
  candidates.sort((a, b) => b.score - a.score);
}

/**
 * Memories written in one conversation are about one thing: each memory gains a share of the two best
 * scores among the others written with it, so the part of a story that shares few words with the
 * question rises beside the part that matches.
 */
const TOGETHER_SHARE = 0.3;

export function liftWrittenTogether(candidates: Candidate[], groupOf: (c: Candidate) => string | null): void {
  // The three best of each group (candidates come sorted): enough to find the two best others of anyone.
  const best = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const g = groupOf(c);
    if (g === null) continue;
    const top = best.get(g) ?? [];
    if (top.length < 3) best.set(g, [...top, c]);
  }
  const lifts = candidates.map((c) => {
    const g = groupOf(c);
    if (g === null) return 0;
    const others = best.get(g)!.filter((o) => o !== c).slice(0, 2);
    return TOGETHER_SHARE * others.reduce((sum, o) => sum + o.score, 0);
  });
  candidates.forEach((c, i) => {
    c.together = lifts[i]!;
    c.score += lifts[i]!;
  });
  candidates.sort((a, b) => b.score - a.score);
}

/**
 * Scores within this share of each other count as a tie, and a tie goes to the newer file: when two
 * memories say much the same (a fact and the later one that replaced it), the newer should come first.
 * Measured by `npm run bench -- recall-quality` (docs/memory-upkeep.md "Measuring recall").
 */
const TIE_SHARE = 0.1;

export function tiesToNewer(candidates: Candidate[], limit: number): void {
  const n = Math.min(candidates.length, limit * 2);
  for (let i = 0; i + 1 < n; i++) {
    const [a, b] = [candidates[i]!, candidates[i + 1]!];
    if (b.score >= a.score * (1 - TIE_SHARE) && b.mtimeMs > a.mtimeMs) {
      [candidates[i], candidates[i + 1]] = [b, a];
      b.newer = true;
    }
  }
}

/**
 * Diversity among the first places (maximal marginal relevance): each place goes to the memory whose
 * score, less a share of its likeness to those already placed, is highest, so a fact and its restatement
 * do not take two of the five. Likeness is the cosine of the two memories' terms weighted by rarity.
 */
const DIVERSE_POOL = 30;
const DIVERSE_PLACES = 10;
const LIKENESS_COST = 0.3;

export function diversify(candidates: Candidate[], limit: number, termsOf: (c: Candidate) => readonly string[], idf: (term: string) => number): void {
  const pool = candidates.slice(0, DIVERSE_POOL);
  const places = Math.min(limit, DIVERSE_PLACES, pool.length);
  if (places < 2) return;
  const vectors = pool.map((c) => {
    const weights = new Map(termsOf(c).map((t) => [t, idf(t)]));
    let norm = 0;
    for (const w of weights.values()) norm += w * w;
    return { weights, norm: Math.sqrt(norm) || 1 };
  });
  const likeness = (i: number, j: number) => {
    const [a, b] = [vectors[i]!, vectors[j]!];
    let dot = 0;
    for (const [t, w] of a.weights) dot += w * (b.weights.get(t) ?? 0);
    return dot / (a.norm * b.norm);
  };
  const best = pool[0]!.score || 1;
  // Per candidate, its greatest likeness to any placed one, updated as each place is filled.
  const nearest = pool.map(() => 0);
  const left = new Set(pool.keys());
  const placed: number[] = [];
  while (placed.length < places) {
    let pick = -1;
    let value = -Infinity;
    for (const i of left) {
      const v = pool[i]!.score / best - LIKENESS_COST * nearest[i]!;
      if (v > value) [pick, value] = [i, v];
    }
    placed.push(pick);
    left.delete(pick);
    for (const i of left) nearest[i] = Math.max(nearest[i]!, likeness(i, pick));
  }
  candidates.splice(0, pool.length, ...placed.map((i) => pool[i]!), ...[...left].map((i) => pool[i]!));
}
