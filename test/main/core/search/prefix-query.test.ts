import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { planQuery, rescore } from '../../../../main/core/search/prefix-query.js';
import { indexedDoc } from './indexed-doc.js';
import { SEARCH_OPTIONS, type IndexedDoc } from '../../../../main/core/search/search-index.js';
import { bestLine } from '../../../../main/core/search/snippet.js';
import { TermDictionary } from '../../../../main/core/search/term-dictionary.js';

const doc = (path: string, text: string): IndexedDoc => indexedDoc(path, '', text);

/** 30 files with "fen", 20 with "fenka", one with "fenlorum" (the rare, long completion), some with "kalo". */
const docs = [
  ...Array.from({ length: 30 }, (_, i) => doc(`a${i}.md`, `Fen ${'x '.repeat(i)}${i % 3 === 0 ? 'kalo' : 'mira'}`)),
  ...Array.from({ length: 20 }, (_, i) => doc(`b${i}.md`, `fenka ${'y '.repeat(i)}kalo`)),
  doc('c.md', 'fenlorum kalo'),
];

async function filled(list: IndexedDoc[]): Promise<TermDictionary> {
  const dictionary = new TermDictionary();
  await dictionary.fill(new Map(list.map((d) => [d.path, d])), () => false, () => Promise.resolve(), 5);
  return dictionary;
}

function indexOf(list: IndexedDoc[]): MiniSearch<IndexedDoc> {
  const mini = new MiniSearch<IndexedDoc>(SEARCH_OPTIONS);
  mini.addAll(list);
  return mini;
}

describe('prefix completions under a budget', () => {
  it('counts the files that hold each word, and follows files added and removed', async () => {
    const dictionary = await filled(docs);
    expect(dictionary.completions('fen')).toEqual(['fen', 'fenka', 'fenlorum']);
    expect([dictionary.files('fen'), dictionary.files('fenka'), dictionary.files('kalo')]).toEqual([30, 20, 31]);
    dictionary.remove(docs.at(-1)!);
    expect(dictionary.completions('fen')).toEqual(['fen', 'fenka']);
    dictionary.add(doc('d.md', 'fenix fenix'));
    expect(dictionary.completions('fen')).toEqual(['fen', 'fenix', 'fenka']);
    expect(dictionary.files('fenix')).toBe(1);
    // Not ready before it is filled: searches expand prefixes in full meanwhile.
    expect(new TermDictionary().completions('fen')).toEqual([]);
  });

  it('searches the prefix as MiniSearch does while its completions fit the budget', async () => {
    const dictionary = await filled(docs);
    expect(planQuery('fen', ['fen'], 'AND', dictionary, 51)).toEqual({ query: 'fen', sources: null });
    expect(planQuery('fe', ['fe'], 'AND', dictionary, 1)).toEqual({ query: 'fe', sources: null });
  });

  it('past the budget, searches the best completions with the scores a full prefix search gives them', async () => {
    const dictionary = await filled(docs);
    const mini = indexOf(docs);
    const full = mini.search('fen kalo');
    const { query, sources } = planQuery('fen kalo', ['fen', 'kalo'], 'AND', dictionary, 50);
    expect(sources).not.toBeNull();
    const capped = rescore(mini.search(query, { combineWith: 'AND' }), sources!);
    // The rare long completion is left out; every other file is found, ranked and scored as before.
    const withoutRare = full.filter((r) => r.id !== 'c.md');
    expect(capped.map((r) => r.id)).toEqual(withoutRare.map((r) => r.id));
    capped.forEach((r, i) => expect(r.score).toBeCloseTo(withoutRare[i]!.score, 10));
    expect(full.some((r) => r.id === 'c.md')).toBe(true);
  });

  it('prefers the completions held by the most files to shorter, rarer ones', async () => {
    const list = [...docs, doc('x.md', 'fenx'), ...Array.from({ length: 5 }, (_, i) => doc(`k${i}.md`, 'fenkalorum'))];
    const dictionary = await filled(list);
    const { query } = planQuery('fen', ['fen'], 'AND', dictionary, 55);
    expect(query).toMatchObject({ queries: [{ queries: ['fen', 'fenka', 'fenkalorum'] }] });
  });

  it('keeps at least the best completion when even that one passes the budget', async () => {
    const dictionary = await filled(docs);
    const { query } = planQuery('fen', ['fen'], 'OR', dictionary, 1);
    expect(query).toMatchObject({ combineWith: 'OR', queries: [{ queries: ['fen'] }] });
  });
});

describe('the best line of a hit', () => {
  const matches = (word: string, term: string) => word === term || (term.length >= 3 && word.startsWith(term));

  it('prefers the line with the most typed terms over one with several completions of one term', () => {
    const text = 'fenka fenlo fendor here\nnothing\na fenka and Kalo line';
    const best = bestLine(text, ['fen', 'kalo'], matches);
    expect(best.index).toBe(2);
    expect(best.snippet).toBe('a fenka and Kalo line');
    // Each matching word is highlighted whole, as the index matched it, in its own case.
    expect(best.ranges.map(([a, b]) => best.snippet.slice(a, b))).toEqual(['fenka', 'Kalo']);
  });

  it('does not match inside a word, nor a short term by prefix', () => {
    const best = bestLine('confen\nab abc\nab', ['fen', 'ab'], matches);
    expect(best.index).toBe(1);
    expect(best.ranges.map(([a, b]) => best.snippet.slice(a, b))).toEqual(['ab']);
  });

  it('cuts a long line around the first match and shifts the highlights with it', () => {
    const line = `${'lorem '.repeat(40)}target word ${'ipsum '.repeat(40)}`;
    const best = bestLine(`intro\n${line}`, ['target'], matches);
    expect(best.index).toBe(1);
    expect(best.snippet.startsWith('…')).toBe(true);
    expect(best.snippet.endsWith('…')).toBe(true);
    expect(best.ranges.map(([a, b]) => best.snippet.slice(a, b))).toEqual(['target']);
  });
});
