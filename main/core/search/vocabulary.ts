interface Entry {
  /** The term the word is indexed under (its stem). */
  term: string;
  /** How many documents hold the word. */
  docs: number;
  /** The document being counted when the word was last met (counts a word once per document). */
  seen: number;
}

/** A vocabulary as flat lists, for the cache file (index-cache.ts). */
export interface VocabularyParts {
  /** The words, in code-unit order. */
  words: string[];
  /** The term of each word; '' where it is the word itself. */
  terms: string[];
  docs: Uint32Array;
}

/** Index of the first entry of `sorted` that is not below `word`. */
function lowerBound(sorted: readonly string[], word: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** New words merged into the sorted list one by one up to this many; past it, the list is sorted again. */
const MERGE_MAX = 2_000;

/**
 * The vault's words as written (folded, not stemmed: analyzer.ts `eachWord`), each with its term, beside the
 * term index (term-index.ts), which knows only stems. A prefix is completed over these words, so that
 * `paintin`, typed on the way to `painting`, finds the notes indexed under `paint` (docs/memory.md#vault-upkeep).
 * Kept in code-unit order for binary search; words that come or go are merged in when next asked for.
 */
export class Vocabulary {
  private readonly entries = new Map<string, Entry>();
  private sorted: string[] = [];
  /** Words added since `sorted` was made (some may be in it still, removed then added again). */
  private pending: string[] = [];
  /** How many words of `sorted` are gone from `entries`. */
  private stale = 0;
  private serial = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Starts counting one document's words: each word it holds counts once, however often it is met. */
  startDocument(): void {
    this.serial++;
  }

  add(word: string, term: string): void {
    const entry = this.entries.get(word);
    if (!entry) {
      this.entries.set(word, { term, docs: 1, seen: this.serial });
      this.pending.push(word);
    } else if (entry.seen !== this.serial) {
      entry.seen = this.serial;
      entry.docs++;
    }
  }

  remove(word: string): void {
    const entry = this.entries.get(word);
    if (!entry || entry.seen === this.serial) return;
    entry.seen = this.serial;
    if (--entry.docs > 0) return;
    this.entries.delete(word);
    this.stale++;
  }

  /** Calls `each` with every word that starts with `prefix` (itself included), in code-unit order. */
  complete(prefix: string, each: (word: string, term: string) => void): void {
    const sorted = this.current();
    for (let i = lowerBound(sorted, prefix); i < sorted.length && sorted[i]!.startsWith(prefix); i++) {
      const entry = this.entries.get(sorted[i]!);
      if (entry) each(sorted[i]!, entry.term);
    }
  }

  toParts(): VocabularyParts {
    const words = [...this.current()].filter((w) => this.entries.has(w));
    const terms = words.map((w) => {
      const { term } = this.entries.get(w)!;
      return term === w ? '' : term;
    });
    return { words, terms, docs: Uint32Array.from(words, (w) => this.entries.get(w)!.docs) };
  }

  static fromParts(parts: VocabularyParts): Vocabulary {
    const { words, terms, docs } = parts;
    if (terms.length !== words.length || docs.length !== words.length) throw new Error('vocabulary parts of different sizes');
    const vocabulary = new Vocabulary();
    words.forEach((word, i) => {
      if (i > 0 && !(words[i - 1]! < word)) throw new Error('vocabulary out of order');
      vocabulary.entries.set(word, { term: terms[i] || word, docs: docs[i]!, seen: 0 });
    });
    vocabulary.sorted = words;
    return vocabulary;
  }

  /** `sorted` with the words added and removed since brought in. */
  private current(): string[] {
    if (this.pending.length === 0 && this.stale * 4 <= this.sorted.length) return this.sorted;
    if (this.pending.length > MERGE_MAX || this.stale * 4 > this.sorted.length) {
      this.sorted = [...this.entries.keys()].sort();
      this.stale = 0;
    } else {
      for (const word of this.pending) {
        const at = lowerBound(this.sorted, word);
        if (this.sorted[at] === word) this.stale--;
        else this.sorted.splice(at, 0, word);
      }
    }
    this.pending = [];
    return this.sorted;
  }
}
