import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../../main/core/search/tokenize.js';

const minisearchTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** Characters that exercise every branch: ASCII punctuation and symbols, Unicode spaces and dashes, surrogates. */
const alphabet = [
  'a', 'Z', '0', ' ', '\n', '\r', '\t', '.', ',', '-', '_', '$', '+', '<', '|', '~', '`', "'", '"', '#', '@',
  '\u00a0', '\u2009', '\u2028', '\u3000', '—', '…', '«', '»', '。', '、', 'é', 'ß', '東', '京',
  '🎉', '𝔸', '\u{1039f}', '\ud800', '\udc00', '\u0301',
];

function randomText(seed: number): string {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) / 2 ** 24;
  const length = Math.floor(next() * 40);
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

describe('tokenize', () => {
  it('splits exactly as MiniSearch’s default tokenizer, empty edge tokens included', () => {
    const samples = ['', ' ', 'a', ',a', 'a,', '...', 'We use PostgreSQL 15, not MySQL.\n**Why:** replication', 'Café 東京… 🎉\r\nend'];
    for (const text of samples) expect(tokenize(text), JSON.stringify(text)).toEqual(minisearchTokenize(text));
    for (let seed = 1; seed <= 3000; seed++) {
      const text = randomText(seed);
      expect(tokenize(text), JSON.stringify(text)).toEqual(minisearchTokenize(text));
    }
  });
});
