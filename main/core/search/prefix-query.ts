import { eachWord, isStopWord, writtenUnspaced } from './analyzer.js';
import type { WeightedTerm } from './term-index.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * Prefix search on every word of three letters or more makes the search usable as one types. In scripts
 * written without spaces the index holds character pairs (analyzer.ts), so one character typed completes
 * to the pairs it begins: `猫` finds `猫が好き`.
 */
const searchesPrefix = (word: string): boolean => word.length >= 3 || writtenUnspaced(word);

/**
 * How many (file, term) pairs the completions of one prefix may bring into a search. A three-letter
 * prefix of a 10,000-note vault can complete to terms held 60,000 times; past the budget the prefix is
 * searched by its best completions only, as search engines cap prefix expansions (Elasticsearch's
 * `max_expansions`, Lucene's top-terms rewrite); each letter typed narrows them
 * (docs/memory.md#vault-upkeep `vault-ui-search`).
 */
const PREFIX_BUDGET = 10_000;

/** Words of a query searched at most: a pasted paragraph still answers at once. */
const MAX_QUERY_WORDS = 32;

/** A completion weighs less the more letters it adds to what was typed (MiniSearch's rule, kept for its ranking). */
const PREFIX_WEIGHT = 0.375;
const completionWeight = (typed: string, word: string): number =>
  word === typed ? 1 : (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - typed.length));

/** What a query searches: the terms to score and, for each, the typed words it stands for. */
export interface QueryPlan {
  terms: WeightedTerm[];
  /** Per entry of `terms`, the indexes of the typed words (groups) it matches. */
  groupsOf: number[][];
  /** How many typed words count; a document holding some term of each has every word. */
  groups: number;
}

/**
 * The terms one typed word searches: its own term (`own`, when it has one) at full weight, and when it is
 * long enough the terms of the vault's words it begins, each at the weight of its best completion (stop
 * words left out when `skipStopWords`). Terms no file holds are dropped. Past the budget only the word's own
 * term and then the terms held by the most files are kept (what the typist most likely means, and the most
 * files found for the budget), shorter words first among equals; the best one is always kept.
 */
function termsOfWord(
  word: string,
  own: string | null,
  skipStopWords: boolean,
  vocabulary: Vocabulary,
  docFrequency: (term: string) => number,
  budget: number,
): Map<string, number> {
  const weights = new Map<string, number>();
  const shortest = new Map<string, number>();
  if (own !== null) weights.set(own, 1);
  if (searchesPrefix(word)) {
    vocabulary.complete(word, (completion, completionTerm) => {
      if (skipStopWords && isStopWord(completion)) return;
      const weight = completionWeight(word, completion);
      if (weight > (weights.get(completionTerm) ?? 0)) weights.set(completionTerm, weight);
      shortest.set(completionTerm, Math.min(shortest.get(completionTerm) ?? Infinity, completion.length));
    });
  }
  let total = 0;
  for (const t of weights.keys()) {
    const n = docFrequency(t);
    if (n === 0) weights.delete(t);
    total += n;
  }
  if (total <= budget) return weights;
  const ranked = [...weights.keys()].sort(
    (a, b) =>
      Number(b === own) - Number(a === own) ||
      docFrequency(b) - docFrequency(a) ||
      (shortest.get(a) ?? a.length) - (shortest.get(b) ?? b.length) ||
      (a < b ? -1 : 1),
  );
  const kept = new Map<string, number>();
  let used = 0;
  for (const t of ranked) {
    const n = docFrequency(t);
    if (used > 0 && used + n > budget) break;
    kept.set(t, weights.get(t)!);
    used += n;
  }
  return kept;
}

/**
 * Plans the search of `query` (docs/memory.md#vault-upkeep): its words through the one analyzer, each a
 * group of terms (its stem, and its completions as a prefix). A word no file holds is still a group, so
 * that no file has every word. Stop words say nothing beside other words and are no group, except the
 * last word, which may still be being typed (`the` on the way to `theme`): its completions that are not
 * stop words are. A query of stop words only (`why`, `how to`) searches them as words.
 */
export function planQuery(query: string, vocabulary: Vocabulary, docFrequency: (term: string) => number, budget = PREFIX_BUDGET): QueryPlan {
  const words: { word: string; term: string | null }[] = [];
  eachWord(query, (word, term) => words.length < MAX_QUERY_WORDS && words.push({ word, term }));
  const onlyStopWords = words.every((w) => w.term === null);
  const plan: QueryPlan = { terms: [], groupsOf: [], groups: 0 };
  const at = new Map<string, number>();
  words.forEach(({ word, term }, i) => {
    const stop = term === null && !onlyStopWords;
    if (stop && i < words.length - 1) return;
    const own = stop ? null : (term ?? word);
    const weights = termsOfWord(word, own, stop, vocabulary, docFrequency, budget);
    if (weights.size === 0 && stop) return;
    const group = plan.groups++;
    for (const [t, weight] of weights) {
      const k = at.get(t);
      if (k === undefined) {
        at.set(t, plan.terms.length);
        plan.terms.push({ term: t, weight });
        plan.groupsOf.push([group]);
      } else {
        plan.terms[k]!.weight = Math.max(plan.terms[k]!.weight, weight);
        plan.groupsOf[k]!.push(group);
      }
    }
  });
  return plan;
}
