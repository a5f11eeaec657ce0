import MiniSearch from 'minisearch';
import type { IndexedDoc } from './indexed-doc.js';
import { internals, type MiniInternals } from './mini-state.js';
import { PackedPostings } from './packed-postings.js';

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
