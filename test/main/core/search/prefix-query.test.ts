import { describe, expect, it } from 'vitest';
import { planQuery } from '../../../../main/core/search/prefix-query.js';
import { SearchIndex } from '../../../../main/core/search/search-index.js';
import { indexedDoc } from './indexed-doc.js';

const doc = (path: string, text: string) => indexedDoc(path, '', text);

/** 30 files with "fen", 20 with "fenka", one with "fenlorum" (the rare, long completion), some with "kalo". */
const docs = [
  ...Array.from({ length: 30 }, (_, i) => doc(`a${i}.md`, `Fen ${'x '.repeat(i)}${i % 3 === 0 ? 'kalo' : 'mira'}`)),
  ...Array.from({ length: 20 }, (_, i) => doc(`b${i}.md`, `fenka ${'y '.repeat(i)}kalo`)),
  doc('c.md', 'fenlorum kalo'),
];

function plan(list: ReturnType<typeof doc>[], query: string, budget?: number) {
  const index = SearchIndex.fromDocs(list);
  return planQuery(query, index.words, (t) => index.terms.docFrequency(t), budget);
}
const termsOf = (p: ReturnType<typeof plan>) => p.terms.map((t) => t.term);

describe('planning a query', () => {
  it('searches a word as typed and, from three letters on, every word of the vault it begins', () => {
    expect(termsOf(plan(docs, 'fen'))).toEqual(['fen', 'fenka', 'fenlorum']);
    expect(termsOf(plan(docs, 'fe'))).toEqual([]);
    expect(plan(docs, 'fe').groups).toBe(1);
    expect(plan(docs, 'fen kalo')).toMatchObject({ groups: 2, groupsOf: [[0], [0], [0], [1]] });
  });

  it('weighs a completion less the more letters it adds', () => {
    const [fen, fenka, fenlorum] = plan(docs, 'fen').terms.map((t) => t.weight);
    expect(fen).toBe(1);
    expect(fenka!).toBeLessThan(1);
    expect(fenlorum!).toBeLessThan(fenka!);
  });

  it('completes through inflections: the words as written lead to their stems', () => {
    const list = [doc('p.md', 'painting classes'), doc('q.md', 'the painter')];
    for (const typed of ['pai', 'paint', 'painti', 'paintin', 'painting']) expect(termsOf(plan(list, typed)), typed).toContain('paint');
    // `paintin` itself is no file's term: only what it completes to is searched.
    expect(termsOf(plan(list, 'paintin'))).toEqual(['paint']);
  });

  it('past the budget, keeps the typed word then the completions held by the most files', () => {
    // fen 30 + fenka 20 + fenlorum 1 = 51 pairs: a budget of 50 leaves the rare long completion out.
    expect(termsOf(plan(docs, 'fen', 51))).toEqual(['fen', 'fenka', 'fenlorum']);
    expect(termsOf(plan(docs, 'fen', 50))).toEqual(['fen', 'fenka']);
    const more = [...docs, doc('x.md', 'fenx'), ...Array.from({ length: 5 }, (_, i) => doc(`k${i}.md`, 'fenkalorum'))];
    expect(termsOf(plan(more, 'fen', 55))).toEqual(['fen', 'fenka', 'fenkalorum']);
  });

  it('keeps at least the best completion when even that one passes the budget', () => {
    expect(termsOf(plan(docs, 'fen', 1))).toEqual(['fen']);
    expect(termsOf(plan(docs, 'fenk', 1))).toEqual(['fenka']);
  });

  it('leaves stop words out beside other words, except the last word, which may still be being typed', () => {
    const list = [doc('t.md', 'the theme of the talk, and why')];
    expect(plan(list, 'the talk')).toMatchObject({ groups: 1, terms: [{ term: 'talk' }] });
    // `the` may be on its way to `theme`: its completions count, the stop words among them do not.
    expect(plan(list, 'talk the')).toMatchObject({ groups: 2, terms: [{ term: 'talk' }, { term: 'theme' }] });
    expect(plan(list, 'talk of')).toMatchObject({ groups: 1, terms: [{ term: 'talk' }] });
  });

  it('searches a query of stop words only as its words', () => {
    const list = [doc('t.md', 'the theme of the talk, and why')];
    expect(plan(list, 'why')).toMatchObject({ groups: 1, terms: [{ term: 'why', weight: 1 }] });
    expect(plan(list, 'of the')).toMatchObject({ groups: 2, terms: [{ term: 'of' }, { term: 'the' }, { term: 'theme' }] });
    expect(plan([doc('x.md', 'nothing')], 'which')).toMatchObject({ groups: 1, terms: [] });
  });

  it('searches one term once for words that share it, as part of each', () => {
    const p = plan([doc('p.md', 'paints')], 'paint painting');
    expect(p.terms.filter((t) => t.term === 'paint')).toHaveLength(1);
    expect(p.groupsOf[termsOf(p).indexOf('paint')]).toEqual([0, 1]);
  });

  it('reads at most 32 words of a pasted paragraph', () => {
    expect(plan(docs, Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ')).groups).toBe(32);
  });
});
