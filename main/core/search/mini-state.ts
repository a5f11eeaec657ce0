import MiniSearch from 'minisearch';
import type { IndexedDoc } from './indexed-doc.js';
import { PackedPostings, packedLength, type Frequencies } from './packed-postings.js';

/** term → field id → short document id → term frequency: MiniSearch's inverted index. */
type FieldPostings = Map<number, Frequencies>;

/**
 * The fields of a MiniSearch 7 instance that its own `add` and `loadJS` fill in. Building them directly
 * is what makes a 10,000-note vault searchable in time (docs/memory.md#vault-upkeep `vault-ready`): `add` walks the radix
 * tree once per token, `loadJSON` goes through an object per posting list. The result is the state
 * `addAll` / `loadJSON` would have made, term order included (test/main/core/search checks it).
 */
export interface MiniInternals {
  _documentCount: number;
  _nextId: number;
  _dirtCount: number;
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _index: Iterable<[string, FieldPostings]> & { set(term: string, data: FieldPostings): unknown; size: number };
}

/** The parts of the state that are not posting lists (they go in the cache's JSON header). */
export interface MiniMeta {
  documentCount: number;
  nextId: number;
  dirtCount: number;
  averageFieldLength: number[];
  /** Short ids and the document ids (paths) they stand for, in MiniSearch's order. */
  shortIds: number[];
  ids: string[];
  /** Per short id (same order), the unique-token count of each field; -1 where the field was absent. */
  fieldLength: number[][];
}

/** A MiniSearch state as plain data: the meta, the terms in index order, and their posting lists. */
export interface MiniState {
  meta: MiniMeta;
  terms: string[];
  /** Per term: field count, then per field: field id, posting count, then (short id, frequency) pairs. */
  postings: Int32Array;
}

/** The instance's internals, or an error when this MiniSearch is not shaped as the code expects. */
export function internals(mini: MiniSearch<IndexedDoc>): MiniInternals {
  const m = mini as unknown as Partial<MiniInternals>;
  const index = m._index as { set?: unknown; [Symbol.iterator]?: unknown } | undefined;
  if (
    typeof m._documentCount !== 'number' ||
    typeof m._nextId !== 'number' ||
    !(m._documentIds instanceof Map) ||
    !(m._idToShortId instanceof Map) ||
    !(m._fieldLength instanceof Map) ||
    !Array.isArray(m._avgFieldLength) ||
    typeof m._fieldIds !== 'object' ||
    typeof index?.set !== 'function' ||
    typeof index[Symbol.iterator] !== 'function'
  ) {
    throw new Error('this MiniSearch version keeps its index differently');
  }
  return m as MiniInternals;
}

/** The terms of `mini` whose posting lists are still packed. */
export function packedTerms(mini: MiniSearch<IndexedDoc>): PackedPostings[] {
  const out: PackedPostings[] = [];
  for (const [, data] of internals(mini)._index) if (data instanceof PackedPostings && data.packed()) out.push(data);
  return out;
}

/** The state of `mini` as plain data, for the cache. */
export function exportMiniState(mini: MiniSearch<IndexedDoc>): MiniState {
  const state = internals(mini);
  const fieldCount = Object.keys(state._fieldIds).length;
  const shortIds: number[] = [];
  const ids: string[] = [];
  const fieldLength: number[][] = [];
  for (const [shortId, id] of state._documentIds) {
    shortIds.push(shortId);
    ids.push(id);
    const lengths = state._fieldLength.get(shortId) ?? [];
    fieldLength.push(Array.from({ length: fieldCount }, (_, f) => lengths[f] ?? -1));
  }
  const terms: string[] = [];
  const packed: (Int32Array | null)[] = [];
  let size = 0;
  for (const [term, data] of state._index) {
    terms.push(term);
    // A term nothing has read yet is copied as it is, without unpacking it.
    const slice = data instanceof PackedPostings ? data.packed() : null;
    packed.push(slice);
    if (slice) size += slice.length;
    else {
      size += 1;
      for (const freqs of data.values()) size += 2 + 2 * freqs.size;
    }
  }
  const postings = new Int32Array(size);
  let i = 0;
  let t = 0;
  for (const [, data] of state._index) {
    const slice = packed[t++];
    if (slice) {
      postings.set(slice, i);
      i += slice.length;
      continue;
    }
    postings[i++] = data.size;
    for (const [fieldId, freqs] of data) {
      postings[i++] = fieldId;
      postings[i++] = freqs.size;
      for (const [shortId, freq] of freqs) {
        postings[i++] = shortId;
        postings[i++] = freq;
      }
    }
  }
  const meta: MiniMeta = {
    documentCount: state._documentCount,
    nextId: state._nextId,
    dirtCount: state._dirtCount,
    averageFieldLength: [...state._avgFieldLength],
    shortIds,
    ids,
    fieldLength,
  };
  return { meta, terms, postings };
}

/** Rebuilds the MiniSearch `exportMiniState` described; throws on data that does not fit together. */
export function importMiniState(
  { meta, terms, postings }: MiniState,
  options: ConstructorParameters<typeof MiniSearch<IndexedDoc>>[0],
): MiniSearch<IndexedDoc> {
  const mini = new MiniSearch<IndexedDoc>(options);
  const state = internals(mini);
  if (meta.shortIds.length !== meta.ids.length || meta.fieldLength.length !== meta.ids.length) throw new Error('document tables disagree');
  state._documentCount = meta.documentCount;
  state._nextId = meta.nextId;
  state._dirtCount = meta.dirtCount;
  state._avgFieldLength = [...meta.averageFieldLength];
  meta.shortIds.forEach((shortId, k) => {
    const id = meta.ids[k]!;
    state._documentIds.set(shortId, id);
    state._idToShortId.set(id, shortId);
    const lengths: number[] = [];
    meta.fieldLength[k]!.forEach((length, f) => {
      if (length >= 0) lengths[f] = length;
    });
    state._fieldLength.set(shortId, lengths);
  });
  // The lists stay packed (each term checked to fit); MiniSearch unpacks those it reads.
  let i = 0;
  for (const term of terms) {
    const length = packedLength(postings, i);
    state._index.set(term, new PackedPostings(postings, i));
    i += length;
  }
  if (i !== postings.length) throw new Error('posting lists run past the terms');
  return mini;
}
