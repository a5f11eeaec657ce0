/**
 * Strata's inverted index (docs/memory.md#retrieval-engine): BM25F over named fields, updated one document
 * at a time, held in typed arrays so that 10,000 notes cost megabytes, not hundreds of them (a postings
 * entry is a 4-byte slot and a 2-byte count per field). Vault search and memory recall each keep one,
 * with their own fields and weights, over terms made by the one analyzer (analyzer.ts).
 */

/** A growable typed array (amortised doubling). */
class Grow<T extends Uint32Array | Uint16Array | Float32Array> {
  length = 0;
  constructor(public data: T) {}
  ensure(n: number): void {
    if (n <= this.data.length) return;
    const next = new (this.data.constructor as new (n: number) => T)(Math.max(n, this.data.length * 2, 4));
    next.set(this.data);
    this.data = next;
  }
}

/** The documents holding one term: their slots and, per slot, the term's count in each field. */
interface Postings {
  /** The term's number, what a document's list of its terms holds (`termsOfSlot`). */
  term: number;
  slots: Grow<Uint32Array>;
  /** `fields` counts per entry, in the order of `slots`. */
  counts: Grow<Uint16Array>;
}

export interface FieldScoring {
  /** How much a match in this field counts against one in a weight-1 field. */
  weight: number;
  /** BM25's length normalisation for this field (0: none, 1: full). */
  b: number;
}

export interface ScoreOptions {
  fields: Record<string, FieldScoring>;
  /** BM25's term-frequency saturation. */
  k1: number;
  /** Only documents for which this holds are scored. */
  filter?: (id: string) => boolean;
}

export interface WeightedTerm {
  term: string;
  /** Multiplies the term's BM25 contribution (1 for a typed word). */
  weight: number;
}

export interface ScoredDoc {
  id: string;
  score: number;
  /** Indexes into the query's terms of those this document holds. */
  matched: number[];
}

const MAX_COUNT = 0xffff;

/**
 * An index as flat arrays, for a cache file (search/index-cache.ts): loading them back is a few copies and
 * one pass over the postings, where indexing the documents again means analyzing every text.
 */
export interface TermIndexParts {
  /** The document of each slot; '' for a free one. */
  ids: string[];
  terms: string[];
  /** Where each term's postings start in `slots`, and after the last, `slots.length`. */
  offsets: Uint32Array;
  slots: Uint32Array;
  /** Per postings entry, its counts per field. */
  counts: Uint16Array;
  /** Per slot, its length per field. */
  lengths: Float32Array;
}

export class TermIndex {
  private readonly fieldIndex: Map<string, number>;
  private readonly postings = new Map<string, Postings>();
  private readonly slotOf = new Map<string, number>();
  private ids: (string | undefined)[] = [];
  private readonly free: number[] = [];
  /** Length (terms) of each field per slot: `slot * fields + field`. */
  private readonly lengths = new Grow(new Float32Array(0));
  private readonly totalLength: number[];
  /**
   * Each document's distinct terms by number, to take it out of their postings and to read its key terms.
   * Numbers in a typed array, not the strings: at 10,000 notes of ~140 distinct terms each, an array of
   * string references was 16 MB of the vault's heap, these are 5 MB (docs/memory.md#vault-upkeep).
   */
  private readonly termsOfSlot: (Uint32Array | undefined)[] = [];
  /** The term of each number, and the numbers a term that left the index gave back. */
  private readonly termOfNumber: (string | undefined)[] = [];
  private readonly freeNumbers: number[] = [];
  /** Where `add` gathers a document's term numbers before keeping a copy of just their length. */
  private readonly scratch = new Grow(new Uint32Array(256));

  constructor(readonly fields: readonly string[]) {
    this.fieldIndex = new Map(fields.map((f, i) => [f, i]));
    this.totalLength = fields.map(() => 0);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** How many documents hold `term`. */
  docFrequency(term: string): number {
    return this.postings.get(term)?.slots.length ?? 0;
  }

  /** Inverse document frequency as BM25 weighs it (never below a small positive floor). */
  idf(term: string): number {
    const n = this.docFrequency(term);
    return Math.log(1 + (this.size - n + 0.5) / (n + 0.5));
  }

  /** The distinct terms of a document (empty when it is not indexed). */
  termsOf(id: string): readonly string[] {
    const slot = this.slotOf.get(id);
    const numbers = slot === undefined ? undefined : this.termsOfSlot[slot];
    return numbers ? Array.from(numbers, (n) => this.termOfNumber[n]!) : [];
  }

  /** Postings for a term new to the index, under a free number. */
  private newPostings(term: string, slots: Grow<Uint32Array>, counts: Grow<Uint16Array>): Postings {
    const p: Postings = { term: this.freeNumbers.pop() ?? this.termOfNumber.length, slots, counts };
    this.termOfNumber[p.term] = term;
    this.postings.set(term, p);
    return p;
  }

  /** Every indexed term, in no particular order. */
  terms(): IterableIterator<string> {
    return this.postings.keys();
  }

  /** The index as flat arrays (see `TermIndexParts`). */
  toParts(): TermIndexParts {
    const nf = this.fields.length;
    const terms = [...this.postings.keys()];
    const offsets = new Uint32Array(terms.length + 1);
    terms.forEach((t, i) => (offsets[i + 1] = offsets[i]! + this.postings.get(t)!.slots.length));
    const slots = new Uint32Array(offsets[terms.length]!);
    const counts = new Uint16Array(slots.length * nf);
    terms.forEach((t, i) => {
      const p = this.postings.get(t)!;
      slots.set(p.slots.data.subarray(0, p.slots.length), offsets[i]);
      counts.set(p.counts.data.subarray(0, p.slots.length * nf), offsets[i]! * nf);
    });
    const ids = Array.from(this.ids, (id) => id ?? '');
    return { ids, terms, offsets, slots, counts, lengths: this.lengths.data.slice(0, ids.length * nf) };
  }

  /** An index over `fields` from the parts `toParts` gave; throws when they do not fit together. */
  static fromParts(fields: readonly string[], parts: TermIndexParts): TermIndex {
    const index = new TermIndex(fields);
    const nf = fields.length;
    const { ids, terms, offsets, slots, counts, lengths } = parts;
    const fits =
      offsets.length === terms.length + 1 &&
      offsets[0] === 0 &&
      offsets[terms.length] === slots.length &&
      counts.length === slots.length * nf &&
      lengths.length === ids.length * nf;
    if (!fits) throw new Error('index parts of different sizes');
    index.ids = ids.map((id) => id || undefined);
    ids.forEach((id, slot) => (id ? index.slotOf.set(id, slot) : index.free.push(slot)));
    index.lengths.data = new Float32Array(lengths);
    index.lengths.length = lengths.length;
    for (let i = 0; i < ids.length * nf; i++) index.totalLength[i % nf]! += lengths[i]!;
    // Each document's term numbers are views into one buffer, sized by a first pass over the postings.
    const held = new Uint32Array(ids.length + 1);
    for (const slot of slots) {
      if (slot >= ids.length || !ids[slot]) throw new Error('postings of a free slot');
      held[slot + 1]!++;
    }
    for (let slot = 0; slot < ids.length; slot++) held[slot + 1]! += held[slot]!;
    const numbers = new Uint32Array(slots.length);
    const filled = held.slice(0, ids.length);
    terms.forEach((term, i) => {
      const from = offsets[i]!;
      const to = offsets[i + 1]!;
      if (to <= from || index.postings.has(term)) throw new Error('bad term postings');
      const p = index.newPostings(term, new Grow(slots.subarray(from, to)), new Grow(counts.subarray(from * nf, to * nf)));
      p.slots.length = to - from;
      p.counts.length = (to - from) * nf;
      for (let k = from; k < to; k++) numbers[filled[slots[k]!]!++] = p.term;
    });
    for (let slot = 0; slot < ids.length; slot++) if (ids[slot]) index.termsOfSlot[slot] = numbers.subarray(held[slot], held[slot + 1]);
    return index;
  }

  /** Indexes (or re-indexes) `id` with the analyzed terms of each field. */
  add(id: string, fieldTerms: Record<string, readonly string[]>): void {
    if (this.slotOf.has(id)) this.remove(id);
    const nf = this.fields.length;
    const slot = this.free.pop() ?? this.ids.length;
    this.ids[slot] = id;
    this.slotOf.set(id, slot);
    this.lengths.ensure((slot + 1) * nf);
    this.lengths.length = Math.max(this.lengths.length, (slot + 1) * nf);
    // A document's entry in a term's postings is the last one while the document is being added: one
    // Map lookup per term, no per-document map (adding 10,000 notes is most of a cold start).
    const distinct = this.scratch;
    distinct.length = 0;
    for (const [field, terms] of Object.entries(fieldTerms)) {
      const f = this.fieldIndex.get(field);
      if (f === undefined) throw new Error(`unknown field ${field}`);
      this.lengths.data[slot * nf + f] = terms.length;
      this.totalLength[f]! += terms.length;
      for (const term of terms) {
        let p = this.postings.get(term);
        p ??= this.newPostings(term, new Grow(new Uint32Array(2)), new Grow(new Uint16Array(2 * nf)));
        let n = p.slots.length;
        if (n === 0 || p.slots.data[n - 1] !== slot) {
          p.slots.ensure(n + 1);
          p.counts.ensure((n + 1) * nf);
          p.slots.data[n] = slot;
          p.counts.data.fill(0, n * nf, (n + 1) * nf);
          p.slots.length = ++n;
          distinct.ensure(distinct.length + 1);
          distinct.data[distinct.length++] = p.term;
        }
        const at = (n - 1) * nf + f;
        if (p.counts.data[at]! < MAX_COUNT) p.counts.data[at]!++;
      }
    }
    this.termsOfSlot[slot] = distinct.data.slice(0, distinct.length);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const nf = this.fields.length;
    for (const number of this.termsOfSlot[slot] ?? []) {
      const term = this.termOfNumber[number]!;
      const p = this.postings.get(term)!;
      const at = p.slots.data.subarray(0, p.slots.length).indexOf(slot);
      const last = p.slots.length - 1;
      // Order within a term's postings means nothing: the last entry fills the hole.
      p.slots.data[at] = p.slots.data[last]!;
      p.counts.data.copyWithin(at * nf, last * nf, last * nf + nf);
      p.slots.length = last;
      if (last === 0) {
        this.postings.delete(term);
        this.termOfNumber[number] = undefined;
        this.freeNumbers.push(number);
      }
    }
    for (let f = 0; f < nf; f++) {
      this.totalLength[f]! -= this.lengths.data[slot * nf + f]!;
      this.lengths.data[slot * nf + f] = 0;
    }
    this.termsOfSlot[slot] = undefined;
    this.ids[slot] = undefined;
    this.slotOf.delete(id);
    this.free.push(slot);
  }

  /**
   * BM25F scores of the documents holding any of `terms`, best first: the best `limit` of them (all when
   * not given). Scores add up in a typed array indexed by slot, and each document's `matched` terms (those
   * it holds, in any field) are noted as their postings are read; a term given twice counts once, at its
   * first place.
   */
  score(terms: readonly WeightedTerm[], options: ScoreOptions, limit = Infinity): ScoredDoc[] {
    const nf = this.fields.length;
    const n = Math.max(1, this.size);
    const fieldWeight = new Float64Array(nf);
    const fieldB = new Float64Array(nf);
    const avg = new Float64Array(nf);
    for (const [field, s] of Object.entries(options.fields)) {
      const f = this.fieldIndex.get(field);
      if (f === undefined) continue;
      fieldWeight[f] = s.weight;
      fieldB[f] = s.b;
      avg[f] = this.totalLength[f]! / n || 1;
    }
    const k1 = options.k1;
    const scores = new Float64Array(this.ids.length);
    const matchedOf: number[][] = [];
    // 0: not yet asked, 1: kept, 2: filtered out.
    const verdict = options.filter ? new Uint8Array(this.ids.length) : null;
    const touched: number[] = [];
    const lengths = this.lengths.data;
    const first = new Map<string, number>();
    terms.forEach((t, i) => {
      if (!first.has(t.term)) first.set(t.term, i);
    });
    terms.forEach(({ term, weight }, qi) => {
      const p = this.postings.get(term);
      if (!p || weight === 0) return;
      const shown = first.get(term) === qi;
      const idf = this.idf(term);
      const slots = p.slots.data;
      const counts = p.counts.data;
      for (let i = 0; i < p.slots.length; i++) {
        const slot = slots[i]!;
        if (verdict) {
          if (verdict[slot] === 0) verdict[slot] = options.filter!(this.ids[slot]!) ? 1 : 2;
          if (verdict[slot] === 2) continue;
        }
        let tf = 0;
        for (let f = 0; f < nf; f++) {
          const c = counts[i * nf + f]!;
          if (c === 0 || fieldWeight[f] === 0) continue;
          tf += (fieldWeight[f]! * c) / (1 - fieldB[f]! + (fieldB[f]! * lengths[slot * nf + f]!) / avg[f]!);
        }
        // Held in a field that does not count is still held (recall's file names).
        if (shown) (matchedOf[slot] ??= []).push(qi);
        if (tf === 0) continue;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += (weight * idf * tf * (k1 + 1)) / (tf + k1);
      }
    });
    touched.sort((a, b) => scores[b]! - scores[a]! || a - b);
    const top = touched.length > limit ? touched.slice(0, limit) : touched;
    return top.map((slot) => ({ id: this.ids[slot]!, score: scores[slot]!, matched: matchedOf[slot] ?? [] }));
  }
}
