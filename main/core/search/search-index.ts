import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { SearchHit, VaultScope } from '../../../common/domain/vault.js';
import type { IndexedDoc } from './indexed-doc.js';
import { planQuery, rescore, searchesPrefix } from './prefix-query.js';
import { bestLine, type TermMatch } from './snippet.js';
import { TermDictionary } from './term-dictionary.js';
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

/** A word matches a typed term as the index matches it: whole, or by prefix where prefix search is on. */
const matchesTerm: TermMatch = (word, term) => word === term || (searchesPrefix(term) && word.startsWith(term));

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
    prefix: searchesPrefix,
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
  /** The vault's words and how many files hold each, for capping prefix completions (prefix-query.ts). */
  private readonly words = new TermDictionary();

  constructor(mini?: MiniSearch<IndexedDoc>, docs?: Iterable<IndexedDoc>) {
    this.index = mini ?? new MiniSearch<IndexedDoc>(SEARCH_OPTIONS);
    for (const d of docs ?? []) this.docs.set(d.path, d);
  }

  /** An index over fresh documents (cold build). */
  static fromDocs(docs: IndexedDoc[]): SearchIndex {
    const mini = new MiniSearch<IndexedDoc>(SEARCH_OPTIONS);
    mini.addAll(docs);
    return new SearchIndex(mini, docs);
  }

  get size(): number {
    return this.docs.size;
  }

  /** The MiniSearch state, for the cache. */
  get mini(): MiniSearch<IndexedDoc> {
    return this.index;
  }

  /**
   * Counts the vault's words (term-dictionary.ts) in slices of a few milliseconds between event-loop
   * turns; until then a search expands prefixes in full. Stops early when `cancelled()` says so.
   */
  async settle(cancelled: () => boolean = () => false): Promise<void> {
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    // Not in the caller's turn: whoever just opened the index gets to search it first.
    await nextTurn();
    await this.words.fill(this.docs, cancelled, nextTurn, SETTLE_SLICE_MS);
  }

  upsert(doc: IndexedDoc): void {
    const old = this.docs.get(doc.path);
    if (old) {
      this.index.discard(doc.path);
      this.words.remove(old);
    }
    this.docs.set(doc.path, doc);
    this.index.add(doc);
    this.words.add(doc);
  }

  remove(path: string): void {
    const old = this.docs.get(path);
    if (!old) return;
    this.index.discard(path);
    this.words.remove(old);
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
    const terms = tokenize(query)
      .map((t) => t.toLowerCase())
      .filter(Boolean);
    const run = (combineWith: 'AND' | 'OR') => {
      const { query: planned, sources } = planQuery(query, terms, combineWith, this.words);
      const results = this.index.search(planned, { ...filtered, combineWith });
      return sources ? rescore(results, sources) : results;
    };
    let results = run('AND');
    // Nothing has every word: show what has some of them rather than nothing.
    if (results.length === 0) results = run('OR');
    return { hits: results.slice(offset, offset + limit).map((r) => this.hit(r, terms)), total: results.length };
  }

  private hit(result: SearchResult, terms: string[]): SearchHit {
    const doc = this.docs.get(result.id as string)!;
    const best = bestLine(doc.text, terms, matchesTerm);
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
