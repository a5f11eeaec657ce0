import type { SearchHit, VaultScope } from '../../../common/domain/vault.js';
import { eachWord } from './analyzer.js';
import type { IndexedDoc } from './indexed-doc.js';
import { planQuery, type QueryPlan } from './prefix-query.js';
import { bestLine } from './snippet.js';
import { TermIndex, type ScoredDoc, type ScoreOptions } from './term-index.js';
import { Vocabulary } from './vocabulary.js';

export type { IndexedDoc } from './indexed-doc.js';

/** Filters of `search` (contract `vault:search`, CLI `strata search`). */
export interface SearchQuery {
  scope?: VaultScope;
  type?: string;
  /** Project slugs to keep; the user's CLAUDE.md (no project) is kept too. */
  projects?: string[];
  limit?: number;
}

/** Vault search's fields and weights: a title word counts three times one in the text. */
export const SEARCH_FIELDS = ['title', 'text'] as const;
const SCORING: ScoreOptions = { k1: 1.2, fields: { title: { weight: 3, b: 0.75 }, text: { weight: 1, b: 0.75 } } };

/** A scored file and how many of the typed words it holds. */
interface Found {
  doc: ScoredDoc;
  words: number;
}

/**
 * The full-text index over the vault (docs/memory.md#vault-upkeep), in memory: the one analyzer and the
 * shared term index (analyzer.ts, term-index.ts) over each file's title and text, and the vault's words as
 * written for prefix completion (vocabulary.ts). Unlike recall, it keeps stop words too (each as itself),
 * so that a search for `why` or `how to` finds them. Updated one file at a time from watcher events;
 * persisted by index-cache.ts as a cache that can always be rebuilt from the files.
 */
/** Every index's changes draw from one count, so a revision names one state of one index. */
let lastRevision = 0;

export class SearchIndex {
  readonly docs = new Map<string, IndexedDoc>();
  /** Changes with every document added, replaced or removed (and differs between indexes). */
  revision = ++lastRevision;

  constructor(
    readonly terms: TermIndex = new TermIndex(SEARCH_FIELDS),
    readonly words: Vocabulary = new Vocabulary(),
    docs: Iterable<IndexedDoc> = [],
  ) {
    for (const d of docs) this.docs.set(d.path, d);
  }

  /** An index over fresh documents (cold build). */
  static fromDocs(docs: Iterable<IndexedDoc>): SearchIndex {
    const index = new SearchIndex();
    for (const doc of docs) index.upsert(doc);
    return index;
  }

  get size(): number {
    return this.docs.size;
  }

  upsert(doc: IndexedDoc): void {
    const old = this.docs.get(doc.path);
    if (old) this.unindexWords(old);
    this.docs.set(doc.path, doc);
    this.revision = ++lastRevision;
    this.words.startDocument();
    const fields: Record<(typeof SEARCH_FIELDS)[number], string[]> = { title: [], text: [] };
    for (const field of SEARCH_FIELDS) {
      const terms = fields[field];
      eachWord(doc[field], (word, stem) => {
        const term = stem ?? word;
        terms.push(term);
        this.words.add(word, term);
      });
    }
    this.terms.add(doc.path, fields);
  }

  remove(path: string): void {
    const old = this.docs.get(path);
    if (!old) return;
    this.unindexWords(old);
    this.terms.remove(path);
    this.docs.delete(path);
    this.revision = ++lastRevision;
  }

  /** Uncounts the words of the version of a file that was indexed. */
  private unindexWords(old: IndexedDoc): void {
    this.words.startDocument();
    for (const field of SEARCH_FIELDS) eachWord(old[field], (word) => this.words.remove(word));
  }

  search(query: string, options: SearchQuery = {}): SearchHit[] {
    return this.searchPage(query, options).hits;
  }

  /**
   * One page of results (`limit` from `offset`) and how many there are in all, so a list can say
   * "50 of 312" and offer more. Files holding every typed word come first, ranked by BM25F; when none
   * does, those holding some of them, the more the better.
   */
  searchPage(query: string, options: SearchQuery & { offset?: number } = {}): { hits: SearchHit[]; total: number } {
    const limit = options.limit ?? 20;
    const offset = options.offset ?? 0;
    const plan = planQuery(query, this.words, (t) => this.terms.docFrequency(t));
    if (plan.groups === 0) return { hits: [], total: 0 };
    const scored = this.terms.score(plan.terms, { ...SCORING, ...this.filterOf(options) });
    const found = scored.map((doc) => ({ doc, words: wordsHeld(doc, plan) }));
    let results = found.filter((f) => f.words === plan.groups);
    if (results.length === 0) {
      // Nothing has every word: show what has some of them rather than nothing.
      for (const f of found) f.doc.score *= f.words;
      results = found.sort((a, b) => b.doc.score - a.doc.score);
    }
    const matched = new Map(plan.terms.map(({ term }, i) => [term, plan.groupsOf[i]!]));
    return { hits: results.slice(offset, offset + limit).map((f) => this.hit(f, matched, plan.groups)), total: results.length };
  }

  /**
   * Every file holding each typed word, as vault search finds them (the same plan: the one analyzer's
   * stems and folding, the last word completed as a prefix), unranked: the memory table's word filter
   * (docs/memory-upkeep.md#the-memory-table). Unlike a search there is no any-word fallback: a filter
   * that finds nothing says so.
   */
  matchingPaths(query: string, keep: (doc: IndexedDoc) => boolean): string[] {
    const plan = planQuery(query, this.words, (t) => this.terms.docFrequency(t));
    if (plan.groups === 0) return [];
    const filter = (id: string) => {
      const doc = this.docs.get(id);
      return doc !== undefined && keep(doc);
    };
    return this.terms
      .score(plan.terms, { ...SCORING, filter })
      .filter((doc) => wordsHeld(doc, plan) === plan.groups)
      .map((doc) => doc.id);
  }

  private filterOf(options: SearchQuery): Pick<ScoreOptions, 'filter'> {
    const { scope, type } = options;
    const projects = options.projects ? new Set(options.projects) : null;
    if (!scope && !type && !projects) return {};
    return {
      filter: (id) => {
        const doc = this.docs.get(id);
        if (!doc) return false;
        if (scope && doc.scope !== scope) return false;
        if (type && doc.type !== type) return false;
        return !(projects && doc.projectSlug !== null && !projects.has(doc.projectSlug));
      },
    };
  }

  private hit({ doc: scored }: Found, matched: Map<string, number[]>, groups: number): SearchHit {
    const doc = this.docs.get(scored.id)!;
    const best = bestLine(doc.text, matched, groups);
    const line = doc.lineMap ? (doc.lineMap[best.index] ?? 1) : best.index + 1;
    return {
      path: doc.path,
      scope: doc.scope,
      type: doc.type,
      title: doc.title,
      line,
      snippet: best.snippet,
      ranges: best.ranges,
      score: Math.round(scored.score * 1000) / 1000,
    };
  }
}

/** How many of the plan's typed words a scored file holds. */
function wordsHeld(doc: ScoredDoc, plan: QueryPlan): number {
  if (doc.matched.length === 1) return plan.groupsOf[doc.matched[0]!]!.length;
  const held = new Set<number>();
  for (const qi of doc.matched) for (const g of plan.groupsOf[qi]!) held.add(g);
  return held.size;
}
