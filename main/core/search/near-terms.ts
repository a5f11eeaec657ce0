import { stemWord } from './analyzer.js';
import type { TermIndex } from './term-index.js';

/**
 * Terms of an index close to a query word that no document holds (docs/memory.md#recall "Local ranking"):
 * a typo (`fesetival` → `festiv`, `recieved` → `receiv`) or two words run together (`roadtrip` → `road`,
 * `trip`). Asked only for words the index lacks, so a word that matches is never diluted; numbers are
 * never bent (`2023` is not a typo of `2022`). Typos are compared as stems, so one in the suffix the
 * stemmer reads (`educaton`) is missed.
 */

/** Shorter words are too often another word one edit away (`stop`/`top`, `pager`/`page`): they are left as typed. */
const MIN_LETTERS = 6;
/** From this many letters on, two edits still make a typo rather than another word. */
const TWO_EDITS_FROM = 9;
/** Each half of a run-together word has at least this many letters. */
const MIN_PART = 3;

/**
 * `term` is the analyzed form of the folded query word `word`. Returns index terms within one edit of it
 * (two for long words; a swap of neighbours is one edit) that begin with its letter, then the two halves of `word` when both are
 * indexed. Empty when the index holds `term`, or the word has digits or too few letters.
 */
export function nearTerms(index: TermIndex, term: string, word: string): string[] {
  if (index.docFrequency(term) > 0 || word.length < MIN_LETTERS || /\p{N}/u.test(word)) return [];
  const found = new Set<string>();
  const max = word.length >= TWO_EDITS_FROM ? 2 : 1;
  // Misspellings rarely touch the first letter; holding it lets a 10,000-memory vocabulary be read in a millisecond.
  for (const candidate of index.terms()) {
    if (candidate[0] === term[0] && Math.abs(candidate.length - term.length) <= max && withinEdits(candidate, term, max) && !/\p{N}/u.test(candidate)) found.add(candidate);
  }
  for (let i = MIN_PART; i <= word.length - MIN_PART; i++) {
    const halves = [stemWord(word.slice(0, i)), stemWord(word.slice(i))];
    if (halves.every((h) => index.docFrequency(h) > 0)) for (const h of halves) found.add(h);
  }
  found.delete(term);
  return [...found];
}

/** Whether `a` and `b` are at most `max` edits apart (insert, delete, replace, swap of neighbours). */
export function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  // Optimal string alignment distance, row by row, giving up once a whole row is past `max`.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return false;
    [before, previous] = [previous, row];
  }
  return previous[b.length]! <= max;
}
