import { stem } from 'porter2';
import { IRREGULAR_BASE } from './irregular-words.js';

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

/** Whether `word` (folded) is a stop word: left out of `analyze`, given as a null term by `eachWord`. */
export const isStopWord = (word: string): boolean => STOP_WORDS.has(word);

/** Ranking also drops the words a question to an assistant is made of ("tell me what you remember about…"). */
const QUERY_STOP_WORDS = new Set('tell remember recall know think say said mention mentioned please like kind sort thing things get got'.split(' '));

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Whether `word` is in a script written without spaces (indexed as character pairs). */
export const writtenUnspaced = (word: string): boolean => UNSPACED.test(word);
const LATIN_MARKS = /[\u0300-\u036f]/g;
const ASCII_WORD = /^[a-z]+$/;
const NON_ASCII = /[^\t-~]/;

/** NFKC, lower case, Latin diacritics folded. */
export function foldText(text: string): string {
  // ASCII is its own NFKC form, and has nothing to fold.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  const lower = text.normalize('NFKC').toLowerCase();
  // Only decompose when there is something to fold: most text is plain ASCII.
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC') : lower;
}

/** Emits a word with the term it is indexed under (null: a stop word). */
type Emit = (word: string, term: string | null) => void;

/** Splits a run of an unspaced script into overlapping bigrams (a lone character stays itself). */
function pushBigrams(run: string, emit: Emit): void {
  const chars = Array.from(run);
  if (chars.length === 1) emit(chars[0]!, chars[0]!);
  for (let i = 0; i + 1 < chars.length; i++) emit(chars[i]! + chars[i + 1]!, chars[i]! + chars[i + 1]!);
}

/** Splits a folded word where it passes between an unspaced script and anything else. */
function pushWord(word: string, emit: Emit, termOf: (w: string) => string | null): void {
  if (!UNSPACED.test(word)) {
    emit(word, termOf(word));
    return;
  }
  let run = '';
  let other = '';
  const flushOther = () => {
    if (other) emit(other, termOf(other));
    other = '';
  };
  for (const ch of word) {
    if (UNSPACED.test(ch)) {
      flushOther();
      run += ch;
    } else {
      if (run) pushBigrams(run, emit);
      run = '';
      other += ch;
    }
  }
  if (run) pushBigrams(run, emit);
  flushOther();
}

/** The stem of one folded word: porter2 for plain English letters, the word itself otherwise. */
export function stemWord(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  return stem(IRREGULAR_BASE.get(word) ?? word);
}

/**
 * Terms of words already seen: a vault repeats its words, and a Map lookup is many times cheaper than
 * the stemmer (most of indexing 10,000 notes cold; docs/memory.md#vault-upkeep `vault-ready`). Emptied
 * when full, so odd input (hashes, numbers) cannot grow it without bound.
 */
const seen = new Map<string, string | null>();
const SEEN_MAX = 100_000;

function indexTerm(word: string): string | null {
  let term = seen.get(word);
  if (term !== undefined) return term;
  term = STOP_WORDS.has(word) ? null : stemWord(word);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(word, term);
  return term;
}
const queryTerm = (word: string): string | null => (QUERY_STOP_WORDS.has(word) ? null : indexTerm(word));

/** The words of plain ASCII text (letters and digits), found by char code: several times faster than `WORD`. */
function eachAsciiWord(folded: string, emit: Emit, termOf: (w: string) => string | null): void {
  let start = -1;
  for (let i = 0; i <= folded.length; i++) {
    const c = i < folded.length ? folded.charCodeAt(i) : 0;
    const inWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      const word = folded.slice(start, i);
      emit(word, termOf(word));
      start = -1;
    }
  }
}

function eachWith(text: string, emit: Emit, termOf: (w: string) => string | null): void {
  const folded = foldText(text);
  if (!NON_ASCII.test(folded)) eachAsciiWord(folded, emit, termOf);
  else for (const m of folded.matchAll(WORD)) pushWord(m[0], emit, termOf);
}

function analyzeWith(text: string, termOf: (w: string) => string | null): string[] {
  const out: string[] = [];
  eachWith(text, (_, term) => term !== null && out.push(term), termOf);
  return out;
}

/**
 * Every word of `text` in order, folded, with the term it is indexed under (null for a stop word); each
 * bigram of an unspaced script is a word of its own. What vault search needs beside the terms: the
 * words themselves, to complete a prefix as typed and to highlight what matched (search/vocabulary.ts).
 */
export const eachWord = (text: string, emit: (word: string, term: string | null) => void): void => eachWith(text, emit, indexTerm);

const LETTER = /[\p{L}\p{N}\p{M}]/u;

/** Emits the terms of the word `text[start, end)` (not plain ASCII) with their spans (see `eachTermSpan`). */
function spanOtherWord(text: string, start: number, end: number, emit: (term: string, start: number, end: number) => void): void {
  const word = text.slice(start, end);
  if (!UNSPACED.test(word)) {
    eachWith(word, (w, term) => emit(term ?? w, start, end), indexTerm);
    return;
  }
  const chars = Array.from(word);
  const at = [0];
  for (const ch of chars) at.push(at.at(-1)! + ch.length);
  for (let i = 0; i < chars.length; ) {
    const unspaced = UNSPACED.test(chars[i]!);
    let j = i + 1;
    while (j < chars.length && UNSPACED.test(chars[j]!) === unspaced) j++;
    const [from, to] = [start + at[i]!, start + at[j]!];
    if (!unspaced) eachWith(word.slice(at[i], at[j]), (w, term) => emit(term ?? w, from, to), indexTerm);
    else if (j - i === 1) emit(foldText(chars[i]!), from, to);
    else for (let k = i; k + 1 < j; k++) emit(foldText(chars[k]! + chars[k + 1]!), start + at[k]!, start + at[k + 2]!);
    i = j;
  }
}

/**
 * The terms of `text` as vault search indexes them (a stop word as itself: search-index.ts) with where in
 * `text` each comes from ([start, end) in code units), to highlight what a search matched
 * (search/snippet.ts): a word's terms span the word as written, a bigram its two characters. Words are
 * found by char code, and a plain ASCII word is only lower-cased: a result's best line is looked for over
 * its whole text (a MEMORY.md runs to 20 KB), where a pattern and folding per word cost more than the search.
 */
export function eachTermSpan(text: string, emit: (term: string, start: number, end: number) => void): void {
  let start = -1;
  let ascii = true;
  for (let i = 0; i <= text.length; i++) {
    const at = i;
    const c = i < text.length ? text.charCodeAt(i) : 0;
    let inWord: boolean;
    if (c < 128) inWord = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
    else {
      const cp = text.codePointAt(i)!;
      inWord = LETTER.test(String.fromCodePoint(cp));
      // The second half of a surrogate pair belongs to the character just read.
      if (cp > 0xffff) i++;
    }
    if (inWord) {
      if (start < 0) [start, ascii] = [at, true];
      if (c >= 128) ascii = false;
    } else if (start >= 0) {
      if (ascii) {
        const word = text.slice(start, at).toLowerCase();
        emit(indexTerm(word) ?? word, start, at);
      } else spanOtherWord(text, start, at, emit);
      start = -1;
    }
  }
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
