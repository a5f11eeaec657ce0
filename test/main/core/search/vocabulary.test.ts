import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../../main/core/search/search-index.js';
import { Vocabulary } from '../../../../main/core/search/vocabulary.js';
import { indexedDoc } from './indexed-doc.js';
import { randomEdits } from './random-edits.js';

const doc = (path: string, text: string) => indexedDoc(path, '', text);

function completions(vocabulary: Vocabulary, prefix: string): string[] {
  const out: string[] = [];
  vocabulary.complete(prefix, (word) => out.push(word));
  return out;
}

describe('the vault’s words, kept current one file at a time', () => {
  it('offers a word while some file holds it, and follows edits and removals', () => {
    const index = SearchIndex.fromDocs([doc('a.md', 'Painting fenix'), doc('b.md', 'painting painter')]);
    expect(completions(index.words, 'pain')).toEqual(['painter', 'painting']);
    index.upsert(doc('b.md', 'nothing here'));
    expect(completions(index.words, 'pain')).toEqual(['painting']);
    index.remove('a.md');
    expect(completions(index.words, 'pain')).toEqual([]);
    expect(completions(index.words, 'fen')).toEqual([]);
    index.upsert(doc('c.md', 'fenix fenix fenland'));
    expect(completions(index.words, 'fen')).toEqual(['fenix', 'fenland']);
    expect(index.words.size).toBe(index.words.toParts().words.length);
  });

  it('keeps its order through many words coming and going, and through its cache parts', () => {
    const index = new SearchIndex();
    // Past the merge limit, then a few at a time, then most of them gone.
    index.upsert(doc('many.md', Array.from({ length: 3_000 }, (_, i) => `w${(i * 7919) % 3_000}x`).join(' ')));
    expect(completions(index.words, 'w12')).toEqual(['w12x', ...Array.from({ length: 10 }, (_, i) => `w12${i}x`), ...Array.from({ length: 100 }, (_, i) => `w12${String(i).padStart(2, '0')}x`)].sort());
    index.upsert(doc('few.md', 'w12a w12b'));
    expect(completions(index.words, 'w12a')).toEqual(['w12a']);
    index.remove('many.md');
    expect(completions(index.words, 'w')).toEqual(['w12a', 'w12b']);
    const parts = index.words.toParts();
    expect(parts).toEqual({ words: ['w12a', 'w12b'], terms: ['', ''], docs: Uint32Array.from([1, 1]) });
    expect(completions(Vocabulary.fromParts(parts), 'w12')).toEqual(['w12a', 'w12b']);
    expect(() => Vocabulary.fromParts({ ...parts, words: ['w12b', 'w12a'] })).toThrow(/order/);
  });

  it('searches after edits exactly as an index built afresh over the same files', () => {
    const live = new SearchIndex();
    const files = randomEdits(400, 3, { write: (path, text) => live.upsert(doc(path, text)), remove: (path) => live.remove(path) });
    const fresh = SearchIndex.fromDocs([...files].map(([path, t]) => doc(path, t)));
    const results = (index: SearchIndex, q: string) =>
      index
        .searchPage(q, { limit: 100 })
        .hits.map((h) => `${h.path} ${h.score} ${h.snippet}`)
        .sort();
    for (const q of ['alpha', 'alp', 'the', 'gamma delta', 'iot kap', 'zeta zzz']) expect(results(live, q), q).toEqual(results(fresh, q));
    expect(live.words.toParts()).toEqual(fresh.words.toParts());
  });
});
