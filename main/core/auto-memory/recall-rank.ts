import { analyze, analyzeQuery, foldText, nameTerms, nearTerms } from '../search/index.js';
import { TermIndex, type ScoreOptions, type ScoredDoc, type WeightedTerm } from '../search/index.js';
import type { MemoryFile } from './memory-files.js';
import { diversify, liftWrittenTogether, rewardPhrases, secondHopTerms, tiesToNewer, type Candidate } from './recall-rerank.js';

/**
 * The local ranking of recall (docs/memory.md#recall "Local ranking"): BM25F over a memory folder's files
 * with the one analyzer of vault search (search/analyzer.ts), then a few steps measured on public data
 * (`npm run bench -- recall-locomo`): a word no memory holds is read as its near spellings, name-like words
 * weigh more, a second hop adds the distinctive words of the first results, query words found side by side
 * count more, memories written together lift each other, of two near-equal matches the newer comes first,
 * and the first places go to memories that do not repeat one another. The index is a cache of the files: built once,
 * kept current with `sync`, queried per turn.
 */

/** Why a memory ranks where it does: the parts of its score, for `strata recall --explain` and the chat. */
export interface RankWhy {
  /** Query words it holds, as typed. */
  words: string[];
  /** Of those, the name-like ones (weighted up). */
  names: string[];
  /** Words of the second hop (from the first results) it holds. */
  related: string[];
  /** Pairs of query words it holds side by side. */
  phrases: string[];
  /** Share of its score lent by memories written in the same conversation (0 when none). */
  together: number;
  /** It moved ahead of a near-equal, older memory. */
  newer: boolean;
}

export interface RankedMemory {
  relPath: string;
  score: number;
  why: RankWhy;
}

const SCORING: ScoreOptions = {
  k1: 1.2,
  fields: {
    name: { weight: 1, b: 0.75 },
    description: { weight: 1, b: 0.75 },
    body: { weight: 1, b: 0.75 },
    file: { weight: 0, b: 0.75 },
  },
};

/** A name in the question (capitalised, or shaped like `LGBTQ`, `S3`) counts this much more than other words. */
const NAME_WEIGHT = 2;
/** A near spelling of a word no memory holds (search/near-terms.ts) weighs this share of the word. */
const NEAR_WEIGHT = 0.6;

/** Conversations are grouped by their id; files without one, by the half hour they were written in. */
const TOGETHER_WINDOW_MS = 30 * 60_000;
/** A group larger than this was not written by one conversation (see `togetherGroup`). */
const TOGETHER_MAX_FILES = 20;

interface Entry {
  file: MemoryFile;
  version: string;
  group: string;
}

const versionOf = (f: MemoryFile) => `${f.mtimeMs}:${f.size}`;
const groupOf = (f: MemoryFile) => (f.originSessionId ? `s:${f.originSessionId}` : `t:${Math.floor(f.mtimeMs / TOGETHER_WINDOW_MS)}`);

function fieldTerms(f: MemoryFile): Record<string, string[]> {
  return {
    name: analyze(f.name ?? ''),
    description: analyze(f.description ?? ''),
    body: analyze(f.body),
    file: analyze(f.relPath.replace(/\.md$/, '')),
  };
}

export class MemoryRanker {
  private readonly index = new TermIndex(Object.keys(SCORING.fields));
  private readonly entries = new Map<string, Entry>();
  private readonly groupSizes = new Map<string, number>();

  constructor(files: readonly MemoryFile[] = []) {
    this.sync(files);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Brings the index to `files`: removed files leave it, added ones join it, changed ones (mtime or size)
   * are re-indexed; the rest is untouched. Returns how many documents changed.
   */
  sync(files: readonly MemoryFile[]): number {
    let changed = 0;
    const present = new Set(files.map((f) => f.relPath));
    for (const id of [...this.entries.keys()]) {
      if (present.has(id)) continue;
      this.index.remove(id);
      this.countGroup(this.entries.get(id)!.group, -1);
      this.entries.delete(id);
      changed++;
    }
    for (const f of files) {
      const entry = this.entries.get(f.relPath);
      // The same object is the same version (recall's sources keep unchanged files); else compare identities.
      if (entry?.file === f) continue;
      if (entry?.version === versionOf(f)) {
        entry.file = f;
        continue;
      }
      this.index.add(f.relPath, fieldTerms(f));
      if (entry) this.countGroup(entry.group, -1);
      this.entries.set(f.relPath, { file: f, version: versionOf(f), group: groupOf(f) });
      this.countGroup(groupOf(f), 1);
      changed++;
    }
    return changed;
  }

  private countGroup(group: string, by: number): void {
    const n = (this.groupSizes.get(group) ?? 0) + by;
    if (n > 0) this.groupSizes.set(group, n);
    else this.groupSizes.delete(group);
  }

  /** Relative paths of the best `limit` files, best first, skipping `exclude`. */
  rank(query: string, limit: number, exclude: ReadonlySet<string> = new Set()): string[] {
    return this.rankExplained(query, limit, exclude).map((r) => r.relPath);
  }

  /** The best `limit` files with the parts of their scores. */
  rankExplained(query: string, limit: number, exclude: ReadonlySet<string> = new Set()): RankedMemory[] {
    const typed = new Map<string, string>();
    for (const word of query.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) for (const t of analyzeQuery(word)) if (!typed.has(t)) typed.set(t, word);
    if (typed.size === 0 || limit <= 0) return [];
    const names = nameTerms(query);
    const asked = [...typed.keys()];
    const terms: WeightedTerm[] = asked.map((term) => ({ term, weight: names.has(term) && this.index.docFrequency(term) > 0 ? NAME_WEIGHT : 1 }));
    // A typo or a run-together word finds the memory as its spelling would; it counts as the word typed.
    for (const term of asked) {
      const word = typed.get(term)!;
      for (const near of nearTerms(this.index, term, foldText(word))) {
        if (typed.has(near)) continue;
        typed.set(near, word);
        terms.push({ term: near, weight: NEAR_WEIGHT * (names.has(term) ? NAME_WEIGHT : 1) });
      }
    }
    const options: ScoreOptions = exclude.size ? { ...SCORING, filter: (id) => !exclude.has(id) } : SCORING;

    // The later steps move memories by bounded factors: scoring the best few hundred is enough.
    const depth = Math.max(limit * 2, 100);
    const first = this.index.score(terms, options, depth);
    const related = secondHopTerms(this.index, first, typed);
    const all = related.length ? [...terms, ...related] : terms;
    const scored = related.length ? this.index.score(all, options, depth) : first;

    // The second hop reorders; it never brings in a memory that holds none of the question's words.
    const candidates: Candidate[] = scored.map((d) => this.candidate(d, all, typed.size)).filter((c) => c.typedMatched > 0);
    rewardPhrases(candidates, asked, (c) => this.entries.get(c.relPath)!.file);
    liftWrittenTogether(candidates, (c) => this.togetherGroup(c.relPath));
    tiesToNewer(candidates, limit);
    diversify(candidates, limit, (c) => this.index.termsOf(c.relPath), (t) => this.index.idf(t));
    return candidates.slice(0, limit).map((c) => ({
      relPath: c.relPath,
      score: c.score,
      why: {
        words: [...new Set(c.matched.filter((t) => typed.has(t)).map((t) => typed.get(t)!))],
        names: c.matched.filter((t) => names.has(t)).map((t) => typed.get(t)!),
        related: c.matched.filter((t) => !typed.has(t)),
        phrases: c.phrases.map((p) => p.map((t) => typed.get(t) ?? t).join(' ')),
        together: c.score > 0 ? Math.round((c.together / c.score) * 100) / 100 : 0,
        newer: c.newer,
      },
    }));
  }

  /**
   * The group a memory was written in, when that group is a conversation's handful: files copied,
   * imported or pulled at once share a time but no story, and lifting them all would only add noise.
   */
  private togetherGroup(relPath: string): string | null {
    const group = this.entries.get(relPath)!.group;
    return (this.groupSizes.get(group) ?? 0) <= TOGETHER_MAX_FILES ? group : null;
  }

  private candidate(d: ScoredDoc, terms: readonly WeightedTerm[], typedCount: number): Candidate {
    const entry = this.entries.get(d.id)!;
    // Typed words first, in the question's order; second-hop words after.
    const matched = d.matched.map((i) => terms[i]!.term);
    return { relPath: d.id, score: d.score, mtimeMs: entry.file.mtimeMs, matched, typedMatched: d.matched.filter((i) => i < typedCount).length, phrases: [], together: 0, newer: false };
  }
}
