import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { SearchHit, VaultScope } from '../../../common/domain/vault.js';
import type { IndexedDoc } from './indexed-doc.js';
import { buildMiniSearch } from './mini-build.js';
import { packedTerms } from './mini-state.js';
import { bestLine } from './snippet.js';
import { tokenize } from './tokenize.js';

export type { IndexedDoc } from './indexed-doc.js';

/** Filters of `search` (contract `vault:search`, CLI `strata search`). */
export interface SearchQuery {
  scope?: VaultScope;
  type?: string;
  /** Project slugs to keep; the user's CLAUDE.md (no project) is kept too. */
  projects?: string[];
  limit?: number;
}

/** How long `settle` holds the event loop at a time. */
const SETTLE_SLICE_MS = 8;

export const SEARCH_OPTIONS: Options<IndexedDoc> = {
  idField: 'path',
  fields: ['title', 'text'],
  // MiniSearch's own tokenizer, made faster (tokenize.ts); searches tokenize queries with it too.
  tokenize,
  storeFields: [],
  searchOptions: {
    boost: { title: 3 },
    // Prefix search on every term of three letters or more makes the search usable as one types.
    prefix: (term: string) => term.length >= 3,
    combineWith: 'AND',
  },
};

/**
 * The full-text index over the vault (docs/memory.md#vault-upkeep), in memory. Updated one file at a time from
 * watcher events; persisted by index-cache.ts as a cache that can always be rebuilt from the files.
 */
export class SearchIndex {
  readonly docs = new Map<string, IndexedDoc>();
  private index: MiniSearch<IndexedDoc>;

  constructor(mini?: MiniSearch<IndexedDoc>, docs?: Iterable<IndexedDoc>) {
    this.index = mini ?? new MiniSearch<IndexedDoc>(SEARCH_OPTIONS);
    for (const d of docs ?? []) this.docs.set(d.path, d);
  }

  /** An index over fresh documents (cold build), made in one pass (mini-state.ts). */
  static fromDocs(docs: IndexedDoc[]): SearchIndex {
    return new SearchIndex(buildMiniSearch(docs, SEARCH_OPTIONS), docs);
  }

  get size(): number {
    return this.docs.size;
  }

  /** The MiniSearch state, for the cache. */
  get mini(): MiniSearch<IndexedDoc> {
    return this.index;
  }

  /**
   * Unpacks every term's posting lists in slices of a few milliseconds between event-loop turns, so
   * that searching never pays for it once the vault has been open a moment (a first search right
   * after opening unpacks just the terms it reads). Stops early when `cancelled()` says so.
   */
  async settle(cancelled: () => boolean = () => false): Promise<void> {
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // Not in the caller's turn: whoever just opened the index gets to search it first.
    await nextTurn();
    const lists = packedTerms(this.index);
    for (let i = 0; i < lists.length && !cancelled(); await nextTurn()) {
      const until = performance.now() + SETTLE_SLICE_MS;
      while (i < lists.length && performance.now() < until) lists[i++]!.unpack();
    }
  }

  upsert(doc: IndexedDoc): void {
    if (this.docs.has(doc.path)) this.index.discard(doc.path);
    this.docs.set(doc.path, doc);
    this.index.add(doc);
  }

  remove(path: string): void {
    if (!this.docs.has(path)) return;
    this.index.discard(path);
    this.docs.delete(path);
  }

  search(query: string, options: SearchQuery = {}): SearchHit[] {
    return this.searchPage(query, options).hits;
  }

  /**
   * One page of results (`limit` from `offset`) and how many there are in all, so a list can say
   * "50 of 312" and offer more.
   */
  searchPage(query: string, options: SearchQuery & { offset?: number } = {}): { hits: SearchHit[]; total: number } {
    const limit = options.limit ?? 20;
    const offset = options.offset ?? 0;
    if (!query.trim()) return { hits: [], total: 0 };
    const projects = options.projects ? new Set(options.projects) : null;
    const filter = (result: SearchResult) => {
      const doc = this.docs.get(result.id as string);
      if (!doc) return false;
      if (options.scope && doc.scope !== options.scope) return false;
      if (options.type && doc.type !== options.type) return false;
      if (projects && doc.projectSlug !== null && !projects.has(doc.projectSlug)) return false;
      return true;
    };
    const filtered = options.scope || options.type || projects ? { filter } : {};
    let results = this.index.search(query, filtered);
    // Nothing has every word: show what has some of them rather than nothing.
    if (results.length === 0) results = this.index.search(query, { ...filtered, combineWith: 'OR' });
    return { hits: results.slice(offset, offset + limit).map((r) => this.hit(r)), total: results.length };
  }

  private hit(result: SearchResult): SearchHit {
    const doc = this.docs.get(result.id as string)!;
    const best = bestLine(doc.text, result.terms, result.queryTerms);
    const line = doc.lineMap ? (doc.lineMap[best.index] ?? 1) : best.index + 1;
    return {
      path: doc.path,
      scope: doc.scope,
      type: doc.type,
      title: doc.title,
      line,
      snippet: best.snippet,
      ranges: best.ranges,
      score: Math.round(result.score * 1000) / 1000,
    };
  }
}
