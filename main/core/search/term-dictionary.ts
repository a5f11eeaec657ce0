import type { IndexedDoc } from './indexed-doc.js';
import { tokenize } from './tokenize.js';

/** The distinct indexed words of a document, as the index keeps them (lower case; title and text). */
function wordsOf(doc: IndexedDoc): Set<string> {
  const words = new Set<string>();
  for (const field of [doc.title, doc.text]) {
    for (const token of tokenize(field)) if (token) words.add(token.toLowerCase());
  }
  return words;
}

/** Index of the first entry of `sorted` that is not below `term`. */
function lowerBound(sorted: string[], term: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every word of the vault with the number of files that hold it, kept beside the MiniSearch index
 * (which keeps its own terms private) so that a short prefix can be searched by its most useful
 * completions only (prefix-query.ts). Filled in the background after the index opens; until then it
 * is not `ready` and searches expand prefixes in full.
 */
export class TermDictionary {
  private readonly counts = new Map<string, number>();
  /** The words in code-unit order once ready (binary search finds a prefix's completions). */
  private sorted: string[] | null = null;
  private readonly counted = new Set<string>();

  get ready(): boolean {
    return this.sorted !== null;
  }

  /** Counts `doc`'s words, once per path. */
  add(doc: IndexedDoc): void {
    if (this.counted.has(doc.path)) return;
    this.counted.add(doc.path);
    for (const word of wordsOf(doc)) {
      const n = this.counts.get(word) ?? 0;
      this.counts.set(word, n + 1);
      if (n === 0 && this.sorted) this.sorted.splice(lowerBound(this.sorted, word), 0, word);
    }
  }

  /** Uncounts `doc` (the version that was added). */
  remove(doc: IndexedDoc): void {
    if (!this.counted.delete(doc.path)) return;
    for (const word of wordsOf(doc)) {
      const n = (this.counts.get(word) ?? 1) - 1;
      if (n > 0) {
        this.counts.set(word, n);
        continue;
      }
      this.counts.delete(word);
      if (this.sorted) {
        const at = lowerBound(this.sorted, word);
        if (this.sorted[at] === word) this.sorted.splice(at, 1);
      }
    }
  }

  /**
   * Counts the documents of `docs` in slices between event-loop turns, then turns ready; each is read
   * from the map when its turn comes, so one replaced or removed meanwhile is counted as it is now.
   * Stops when `cancelled()` says so.
   */
  async fill(docs: ReadonlyMap<string, IndexedDoc>, cancelled: () => boolean, nextTurn: () => Promise<void>, sliceMs: number): Promise<void> {
    const paths = [...docs.keys()];
    for (let i = 0; i < paths.length; await nextTurn()) {
      if (cancelled()) return;
      const until = performance.now() + sliceMs;
      while (i < paths.length && performance.now() < until) {
        const doc = docs.get(paths[i++]!);
        if (doc) this.add(doc);
      }
    }
    if (!cancelled()) this.sorted = [...this.counts.keys()].sort();
  }

  /** How many files hold `word`. */
  files(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  /** The words that start with `prefix` (itself included when indexed), in code-unit order; [] until ready. */
  completions(prefix: string): string[] {
    const sorted = this.sorted;
    if (!sorted) return [];
    const out: string[] = [];
    for (let i = lowerBound(sorted, prefix); i < sorted.length && sorted[i]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  }
}
