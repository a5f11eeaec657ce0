/** Short document id → term frequency, for one term in one field. */
export type Frequencies = Map<number, number>;

/**
 * One term's posting lists (field id → frequencies), left packed in the index's shared Int32Array until
 * something reads them or the index unpacks everything in the background after opening
 * (`SearchIndex.settle`). A 10,000-note vault has about a million postings; turning all of them into
 * Maps before the first search would cost a quarter of a cold open (docs/memory.md#vault-upkeep `vault-ready`). The packed layout is the cache's (mini-state.ts): field count, then per
 * field its id, posting count and (short id, frequency) pairs.
 *
 * It is a real Map: every read or write unpacks first, so MiniSearch's own code (search, add,
 * discard, vacuum, toJSON) sees an ordinary Map.
 */
export class PackedPostings extends Map<number, Frequencies> {
  #data: Int32Array | null;
  #at: number;

  constructor(data: Int32Array, at: number) {
    super();
    this.#data = data;
    this.#at = at;
  }

  /** The packed slice while nothing has unpacked it, else null. */
  packed(): Int32Array | null {
    const data = this.#data;
    return data ? data.subarray(this.#at, this.#at + packedLength(data, this.#at)) : null;
  }

  /** Turns the packed lists into Maps now (the index does it for all terms after opening). */
  unpack(): void {
    const data = this.#data;
    if (!data) return;
    this.#data = null;
    let i = this.#at;
    for (let fields = data[i++]!; fields > 0; fields--) {
      const fieldId = data[i++]!;
      const freqs: Frequencies = new Map();
      for (let n = data[i++]!; n > 0; n--, i += 2) freqs.set(data[i]!, data[i + 1]!);
      super.set(fieldId, freqs);
    }
  }

  override get size(): number {
    this.unpack();
    return super.size;
  }
  override get(key: number): Frequencies | undefined {
    this.unpack();
    return super.get(key);
  }
  override has(key: number): boolean {
    this.unpack();
    return super.has(key);
  }
  override set(key: number, value: Frequencies): this {
    this.unpack();
    return super.set(key, value);
  }
  override delete(key: number): boolean {
    this.unpack();
    return super.delete(key);
  }
  override clear(): void {
    this.#data = null;
    super.clear();
  }
  override forEach(fn: (value: Frequencies, key: number, map: Map<number, Frequencies>) => void, thisArg?: unknown): void {
    this.unpack();
    super.forEach(fn, thisArg);
  }
  override keys(): MapIterator<number> {
    this.unpack();
    return super.keys();
  }
  override values(): MapIterator<Frequencies> {
    this.unpack();
    return super.values();
  }
  override entries(): MapIterator<[number, Frequencies]> {
    this.unpack();
    return super.entries();
  }
  override [Symbol.iterator](): MapIterator<[number, Frequencies]> {
    return this.entries();
  }
}

/** How many integers the term packed at `at` takes; throws when `data` ends before it does. */
export function packedLength(data: Int32Array, at: number): number {
  let i = at;
  const take = () => {
    if (i >= data.length) throw new Error('posting lists cut short');
    return data[i++]!;
  };
  for (let fields = take(); fields > 0; fields--) {
    take();
    const n = take();
    if (n < 0 || i + 2 * n > data.length) throw new Error('posting lists cut short');
    i += 2 * n;
  }
  return i - at;
}
