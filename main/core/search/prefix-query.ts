import type { Query, SearchResult } from 'minisearch';
import type { TermDictionary } from './term-dictionary.js';

/** Prefix search on every term of three letters or more makes the search usable as one types. */
export const searchesPrefix = (term: string): boolean => term.length >= 3;

/**
 * How many (file, word) pairs the completions of one prefix may bring into a search. MiniSearch pays
 * for every such pair, and a three-letter prefix of a 10,000-note vault can bring 60,000 of them
 * (75 ms and up before a row is drawn; docs/memory.md#vault-upkeep `vault-ui-search`). Past the
 * budget the prefix is searched by its best completions only, as search engines cap prefix expansions
 * (Elasticsearch's `max_expansions`, Lucene's top-terms rewrite); each letter typed narrows them.
 */
export const PREFIX_BUDGET = 10_000;

/** MiniSearch's weight for a prefix completion: its default `weights.prefix` and its distance rule. */
const PREFIX_WEIGHT = 0.375;
const completionWeight = (typed: string, word: string): number =>
  word === typed ? 1 : (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - typed.length));

/** A query for MiniSearch, and for a capped one the typed term(s) each searched word stands for. */
export interface PlannedQuery {
  query: Query;
  /** Per searched word, the indexes of the typed terms it comes from; null when nothing was capped. */
  sources: Map<string, number[]> | null;
}

/**
 * The completions of `typed` searched under the budget: the word as typed, then those held by the most
 * files (what the typist most likely means, and the most files found for the budget; Lucene's top-terms
 * rewrite of a prefix query picks the same way), shorter ones first among equals.
 */
function chosenCompletions(typed: string, dictionary: TermDictionary, budget: number): string[] | null {
  const completions = dictionary.completions(typed);
  const files = new Map(completions.map((w) => [w, dictionary.files(w)]));
  let total = 0;
  for (const n of files.values()) total += n;
  if (total <= budget) return null;
  completions.sort((a, b) => Number(b === typed) - Number(a === typed) || files.get(b)! - files.get(a)! || a.length - b.length || (a < b ? -1 : 1));
  const chosen: string[] = [];
  let used = 0;
  for (const word of completions) {
    const n = files.get(word)!;
    if (chosen.length > 0 && used + n > budget) break;
    chosen.push(word);
    used += n;
  }
  return chosen;
}

/**
 * The query for `terms` (the typed terms, tokenized and in lower case as the index has them): the text
 * itself when no prefix passes the budget, so MiniSearch searches as it always does; else a query tree
 * where each capped prefix is an OR of its chosen completions, weighted as MiniSearch weighs them.
 */
export function planQuery(
  text: string,
  terms: string[],
  combineWith: 'AND' | 'OR',
  dictionary: TermDictionary,
  budget = PREFIX_BUDGET,
): PlannedQuery {
  if (!dictionary.ready) return { query: text, sources: null };
  const chosen = terms.map((t) => (searchesPrefix(t) ? chosenCompletions(t, dictionary, budget) : null));
  if (chosen.every((c) => c === null)) return { query: text, sources: null };
  const sources = new Map<string, number[]>();
  const from = (word: string, i: number) => sources.set(word, [...(sources.get(word) ?? []), i]);
  const queries: Query[] = terms.map((typed, i) => {
    const words = chosen[i];
    if (!words) {
      from(typed, i);
      return typed;
    }
    for (const word of words) from(word, i);
    return { combineWith: 'OR', prefix: false, queries: words, boostTerm: (word: string) => completionWeight(typed, word) };
  });
  return { query: { combineWith, queries }, sources };
}

/**
 * MiniSearch multiplies a result's score by how many query terms it matched, and in a planned query
 * each completion counts as a term of its own. Rescales to the typed terms matched, as a plain prefix
 * search would score it, and sorts again.
 */
export function rescore(results: SearchResult[], sources: Map<string, number[]>): SearchResult[] {
  for (const result of results) {
    const typed = new Set<number>();
    for (const word of result.queryTerms) for (const i of sources.get(word) ?? []) typed.add(i);
    result.score = (result.score / (result.queryTerms.length || 1)) * (typed.size || 1);
  }
  return results.sort((a, b) => b.score - a.score);
}
