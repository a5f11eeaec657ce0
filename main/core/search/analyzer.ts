import { stem } from 'porter2';

/**
 * The one analyzer of Strata's retrieval (docs/memory.md#retrieval-engine): vault search and memory recall
 * turn text into the same terms, so a word found by one is found by the other.
 *
 * - NFKC and lower case; Latin diacritics folded (`café`, `cafe` + U+0301 and `cafe` meet).
 * - Words are runs of letters, digits and marks; everything else separates. Apostrophes split
 *   (`Caroline's` → `caroline`, `s`), so a possessive meets the name.
 * - Scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) become overlapping character
 *   bigrams, the usual way to search them without a dictionary; other scripts (Cyrillic, Greek, Arabic,
 *   Hebrew, Devanagari…) keep their words whole. Nothing is dropped for being non-English.
 * - English words are stemmed with Snowball's English stemmer (porter2), so `painting`, `paints` and
 *   `painted` meet; stop words are left out of ranking terms.
 */

/** Words that say nothing about which memory is meant: English function words and question words. */
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each either else ever every few for from further had has have having he her ' +
    'here hers herself him himself his how i if in into is it its itself just me more most much my myself no nor not now of off ' +
    'on once only or other ought our ours ourselves out over own same shall she should so some such than that the their theirs ' +
    'them themselves then there these they this those through to too under until up upon us very was we were what whatever when ' +
    'whenever where whether which while who whom whose why will with would yet you your yours yourself yourselves ' +
    's t d ll m re ve'
  ).split(' '),
);

/** Ranking also drops the words a question to an assistant is made of ("tell me what you remember about…"). */
const QUERY_STOP_WORDS = new Set('tell remember recall know think say said mention mentioned please like kind sort thing things get got'.split(' '));

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const LATIN_MARKS = /[\u0300-\u036f]/g;
const ASCII_WORD = /^[a-z]+$/;
const NON_ASCII = /[^\t-~]/;

/** NFKC, lower case, Latin diacritics folded. */
export function foldText(text: string): string {
  const lower = text.normalize('NFKC').toLowerCase();
  // Only decompose when there is something to fold: most text is plain ASCII.
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC') : lower;
}

/** Splits a run of an unspaced script into overlapping bigrams (a lone character stays itself). */
function pushBigrams(run: string, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) out.push(chars[0]!);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

/** Splits a folded word where it passes between an unspaced script and anything else. */
function pushWord(word: string, out: string[], termOf: (w: string) => string | null): void {
  if (!UNSPACED.test(word)) {
    const term = termOf(word);
    if (term) out.push(term);
    return;
  }
  let run = '';
  let other = '';
  const flushOther = () => {
    const term = other ? termOf(other) : null;
    if (term) out.push(term);
    other = '';
  };
  for (const ch of word) {
    if (UNSPACED.test(ch)) {
      flushOther();
      run += ch;
    } else {
      if (run) pushBigrams(run, out);
      run = '';
      other += ch;
    }
  }
  if (run) pushBigrams(run, out);
  flushOther();
}

/** The stem of one folded word: porter2 for plain English letters, the word itself otherwise. */
export function stemWord(word: string): string {
  return word.length > 2 && ASCII_WORD.test(word) ? stem(word) : word;
}

const indexTerm = (word: string): string | null => (STOP_WORDS.has(word) ? null : stemWord(word));
const queryTerm = (word: string): string | null => (QUERY_STOP_WORDS.has(word) ? null : indexTerm(word));

function analyzeWith(text: string, termOf: (w: string) => string | null): string[] {
  const out: string[] = [];
  for (const m of foldText(text).matchAll(WORD)) pushWord(m[0], out, termOf);
  return out;
}

/** The terms a document is indexed under, in order, repeats kept (term frequency counts them). */
export const analyze = (text: string): string[] => analyzeWith(text, indexTerm);

/** The terms a question is searched by: as `analyze`, less the words of asking itself. */
export const analyzeQuery = (text: string): string[] => analyzeWith(text, queryTerm);

/**
 * The query's words that look like names: capitalised in the question though not its first word, or
 * written in capitals / with digits inside (`LGBTQ`, `S3`). A memory about someone else rarely names
 * them, so such a term is weighed as a constraint (recall-rank.ts).
 */
export function nameTerms(query: string): Set<string> {
  const names = new Set<string>();
  const words = query.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  words.forEach((w, i) => {
    const capitalised = /^\p{Lu}/u.test(w) && i > 0;
    const shaped = /\p{Lu}.*\p{Lu}/u.test(w) || (/\p{L}/u.test(w) && /\p{N}/u.test(w));
    if (!capitalised && !shaped) return;
    for (const t of analyzeQuery(w)) names.add(t);
  });
  return names;
}

/** For each stem, a word of `text` it was made from (`activ` → `activities`), else the stem itself. */
export function surfaceWords(text: string, stems: readonly string[]): string[] {
  if (stems.length === 0) return [];
  const wanted = new Map(stems.map((s) => [s, s]));
  const found = new Set<string>();
  for (const word of foldText(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []) {
    const stem = stemWord(word);
    if (wanted.has(stem) && !found.has(stem)) {
      wanted.set(stem, word);
      found.add(stem);
      if (found.size === wanted.size) break;
    }
  }
  return stems.map((s) => wanted.get(s)!);
}
