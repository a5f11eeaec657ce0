import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../../../main/core/search/search-index.js';
import { indexedDoc } from './indexed-doc.js';

const index = SearchIndex.fromDocs([
  indexedDoc('en.md', 'Deploys', 'Deploys go through the blue pipeline.\n**Why:** the old one broke.\n**How to apply:** run it twice.'),
  indexedDoc('paint.md', 'Hobbies', 'She paints on Sundays and loves painting classes.'),
  indexedDoc('ja.md', '旅行', '東京都に行きました。猫が好きです。'),
  indexedDoc('fr.md', 'Café', 'Le café près de l’école, résumé en français.'),
  indexedDoc('nfd.md', 'Notes', 'Un naïf cafe\u0301 décomposé.'.normalize('NFD')),
  indexedDoc('he.md', 'שלום', 'שלום עולם, מה שלומך'),
  indexedDoc('ar.md', 'مرحبا', 'مرحبا بالعالم، كيف حالك'),
  indexedDoc('ru.md', 'Привет', 'Привет, мир! Программирование'),
  indexedDoc('title.md', 'Pipeline', 'notes'),
]);
const paths = (query: string) => index.search(query).map((h) => h.path);
const highlighted = (query: string, path: string) => {
  const hit = index.search(query).find((h) => h.path === path)!;
  return hit.ranges.map(([a, b]) => hit.snippet.slice(a, b));
};

describe('what vault search finds', () => {
  it('finds inflections of a word through the shared stemmer, and highlights the words as written', () => {
    expect(paths('painted')).toEqual(['paint.md']);
    expect(highlighted('painting', 'paint.md')).toEqual(['paints', 'painting']);
  });

  it('finds a query of stop words only (why, how to), and leaves stop words out beside other words', () => {
    expect(paths('why')).toEqual(['en.md']);
    expect(highlighted('why', 'en.md')).toEqual(['Why']);
    expect(paths('how to')).toEqual(['en.md']);
    // `the` is no word of the query beside `sundays`: the file with no `the` is found.
    expect(paths('the sundays')).toEqual(['paint.md']);
  });

  it('finds words inside Japanese and Chinese text, from one character typed', () => {
    expect(paths('京都')).toEqual(['ja.md']);
    expect(paths('猫')).toEqual(['ja.md']);
    expect(highlighted('東京', 'ja.md')).toEqual(['東京']);
  });

  it('matches accents folded or not, composed or decomposed', () => {
    expect(paths('cafe').sort()).toEqual(['fr.md', 'nfd.md']);
    expect(paths('café').sort()).toEqual(['fr.md', 'nfd.md']);
    expect(paths('ecole')).toEqual(['fr.md']);
    expect(highlighted('resume', 'fr.md')).toEqual(['résumé']);
  });

  it('finds right-to-left and Cyrillic words whole and by prefix', () => {
    expect(paths('עולם')).toEqual(['he.md']);
    expect(paths('مرحبا')).toEqual(['ar.md']);
    expect(paths('прогр')).toEqual(['ru.md']);
  });

  it('ranks a file with the word in its title above one with it in the text', () => {
    expect(paths('pipeline')).toEqual(['title.md', 'en.md']);
  });
});
