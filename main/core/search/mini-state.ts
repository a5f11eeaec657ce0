import MiniSearch from 'minisearch';
import type { IndexedDoc } from './search-index.js';
import { PackedPostings, packedLength, type Frequencies } from './packed-postings.js';

/** term → field id → short document id → term frequency: MiniSearch's inverted index. */
type FieldPostings = Map<number, Frequencies>;

/**
 * The fields of a MiniSearch 7 instance that its own `add` and `loadJS` fill in. Building them directly
 * is what makes a 10,000-note vault searchable in time (issue 4 `vault-ready`): `add` walks the radix
 * tree once per token, `loadJSON` goes through an object per posting list. The result is the state
 * `addAll` / `loadJSON` would have made, term order included (test/main/core/search checks it).
 */
interface MiniInternals {
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
function internals(mini: MiniSearch<IndexedDoc>): MiniInternals {
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

type Tokenize = (text: string, fieldName?: string) => string[];
type ProcessTerm = (term: string, fieldName?: string) => string | string[] | null | undefined | false;

/** Grows an Int32Array to hold index `n`. */
const room = (a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> => {
  if (n < a.length) return a;
  const grown = new Int32Array(Math.max(2 * a.length, n + 1));
  grown.set(a);
  return grown;
};

/**
 * A MiniSearch over `docs`, as `new MiniSearch(options).addAll(docs)` would build it: same tokenizer
 * and term processing, same field lengths and running averages, same posting and term order. Each
 * distinct token of a field is looked up and processed once; a document's term frequencies are
 * counted in typed arrays; the posting lists go into one Int32Array, each term into the radix tree
 * once, as `PackedPostings` that unpack when first read. `processTerm` must be pure.
 */
export function buildMiniSearch(docs: readonly IndexedDoc[], options: ConstructorParameters<typeof MiniSearch<IndexedDoc>>[0]): MiniSearch<IndexedDoc> {
  const mini = new MiniSearch<IndexedDoc>(options);
  let state: MiniInternals;
  try {
    state = internals(mini);
  } catch {
    mini.addAll([...docs]);
    return mini;
  }
  const tokenize = (options.tokenize ?? MiniSearch.getDefault('tokenize')) as Tokenize;
  const processTerm = (options.processTerm ?? MiniSearch.getDefault('processTerm')) as ProcessTerm;
  const extract = (options.extractField ?? MiniSearch.getDefault('extractField')) as (doc: IndexedDoc, field: string) => unknown;
  const stringify = (options.stringifyField ?? MiniSearch.getDefault('stringifyField')) as (value: unknown, field: string) => string;
  const idField = options.idField ?? 'id';
  const fields = options.fields;

  // Terms by first occurrence (MiniSearch's insertion order); per term, its fields in the order they
  // first held it, and per (field, term) the (short id, frequency) pairs in document order.
  const termIds = new Map<string, number>();
  const fieldOrder: number[][] = [];
  const pairs: number[][][] = fields.map(() => []);
  // Per field, each distinct token gets an id; per token id, the ids of the terms it processes to.
  const tokenIds = fields.map(() => new Map<string, number>());
  const tokenTerms: number[][] = [];
  let tokenSeen = new Int32Array(1024);
  let seen = new Int32Array(1024);
  let count = new Int32Array(1024);
  let stamp = 0;

  const termOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      termIds.set(term, (id = termIds.size));
      fieldOrder.push([]);
      seen = room(seen, id);
      count = room(count, id);
    }
    return id;
  };

  for (const doc of docs) {
    const id = extract(doc, idField) as string;
    if (id == null) throw new Error(`MiniSearch: document does not have ID field "${idField}"`);
    if (state._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${id}`);
    const shortId = state._nextId++;
    state._idToShortId.set(id, shortId);
    state._documentIds.set(shortId, id);
    const docCount = state._documentCount++;
    fields.forEach((field, f) => {
      const value = extract(doc, field);
      if (value == null) return;
      const tokens = tokenize(stringify(value, field), field);
      const fieldId = state._fieldIds[field]!;
      const known = tokenIds[f]!;
      stamp++;
      let unique = 0;
      const touched: number[] = [];
      for (const token of tokens) {
        let tokenId = known.get(token);
        if (tokenId === undefined) {
          known.set(token, (tokenId = tokenTerms.length));
          const processed = processTerm(token, field);
          tokenTerms.push((Array.isArray(processed) ? processed : [processed]).filter((t): t is string => !!t).map(termOf));
          tokenSeen = room(tokenSeen, tokenId);
        }
        // The field length is MiniSearch's `new Set(tokens).size`: distinct tokens before processing.
        if (tokenSeen[tokenId] !== stamp) {
          tokenSeen[tokenId] = stamp;
          unique++;
        }
        for (const t of tokenTerms[tokenId]!) {
          if (seen[t] !== stamp) {
            seen[t] = stamp;
            count[t] = 0;
            touched.push(t);
          }
          count[t]!++;
        }
      }
      let lengths = state._fieldLength.get(shortId);
      if (!lengths) state._fieldLength.set(shortId, (lengths = []));
      lengths[fieldId] = unique;
      state._avgFieldLength[fieldId] = ((state._avgFieldLength[fieldId] || 0) * docCount + unique) / (docCount + 1);
      const byTerm = pairs[f]!;
      for (const t of touched) {
        let list = byTerm[t];
        if (!list) {
          byTerm[t] = list = [];
          fieldOrder[t]!.push(f);
        }
        list.push(shortId, count[t]!);
      }
    });
  }

  let size = 0;
  for (let t = 0; t < fieldOrder.length; t++) {
    size += 1;
    for (const f of fieldOrder[t]!) size += 2 + pairs[f]![t]!.length;
  }
  const data = new Int32Array(size);
  let i = 0;
  let t = 0;
  for (const term of termIds.keys()) {
    const at = i;
    const order = fieldOrder[t]!;
    data[i++] = order.length;
    for (const f of order) {
      const list = pairs[f]![t]!;
      data[i++] = state._fieldIds[fields[f]!]!;
      data[i++] = list.length / 2;
      data.set(list, i);
      i += list.length;
    }
    state._index.set(term, new PackedPostings(data, at));
    t++;
  }
  return mini;
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
