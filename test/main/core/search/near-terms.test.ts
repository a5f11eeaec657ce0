import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, foldText, nearTerms, TermIndex } from '../../../../main/core/search/index.js';
import { withinEdits } from '../../../../main/core/search/near-terms.js';

const indexOf = (...texts: string[]) => {
  const index = new TermIndex(['body']);
  texts.forEach((t, i) => index.add(`d${i}`, { body: analyze(t) }));
  return index;
};
const near = (index: TermIndex, word: string) => nearTerms(index, analyzeQuery(word)[0]!, foldText(word));

describe('nearTerms', () => {
  const index = indexOf('The pride festival in June', 'A road trip to the coast', 'She received her diploma', 'The pager rings at night', 'Deploys stop on Fridays');

  it('reads a typo of a word no document holds as the indexed spelling', () => {
    expect(near(index, 'fesetival')).toEqual(analyze('festival'));
    expect(near(index, 'recieved')).toEqual(analyze('received'));
  });

  it('splits a run-together word into two indexed words', () => {
    expect(near(index, 'roadtrip').sort()).toEqual(analyze('road trip').sort());
  });

  it('leaves a word the index holds, a short word, and numbers as typed', () => {
    expect(near(index, 'festival')).toEqual([]);
    // One edit from `pager` and `stop`, but real words in their own right.
    expect(near(index, 'page')).toEqual([]);
    expect(near(indexOf('the top floor'), 'stop')).toEqual([]);
    expect(nearTerms(indexOf('released in 2022'), '2023', '2023')).toEqual([]);
    expect(near(index, 'unrelated')).toEqual([]);
  });
});

describe('withinEdits', () => {
  it('counts inserts, deletes, replacements and a swap of neighbours as one edit each', () => {
    expect(withinEdits('festival', 'festival', 0)).toBe(true);
    expect(withinEdits('festival', 'festivl', 1)).toBe(true);
    expect(withinEdits('festival', 'fesitval', 1)).toBe(true);
    expect(withinEdits('festival', 'fxstival', 1)).toBe(true);
    expect(withinEdits('festival', 'fxstivl', 1)).toBe(false);
    expect(withinEdits('festival', 'fxstivl', 2)).toBe(true);
    expect(withinEdits('abc', 'abcdef', 2)).toBe(false);
  });
});
