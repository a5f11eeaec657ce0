import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, eachTermSpan, foldText, isStopWord, nameTerms, surfaceWords } from '../../../../main/core/search/analyzer.js';

describe('analyze', () => {
  it('stems English words with Snowball so inflections meet', () => {
    expect(analyze('painting paints painted')).toEqual(['paint', 'paint', 'paint']);
    expect(analyze('activities')).toEqual(analyze('activity'));
    expect(analyze('deploys deployed')).toEqual(['deploy', 'deploy']);
  });

  it('joins irregular forms to their base, which no suffix rule reaches', () => {
    expect(analyze('found bought went written children')).toEqual(analyze('find buy go write child'));
    expect(analyze('What did she buy?')).toEqual(analyze('She bought a kayak').slice(0, 1));
    // Forms that are more often another word keep their own term.
    expect(analyze('saw left')).toEqual(['saw', 'left']);
  });

  it('leaves stop words out and splits possessives from names', () => {
    expect(analyze("What is Caroline's plan for the launch?")).toEqual(['carolin', 'plan', 'launch']);
  });

  it('folds Latin diacritics, composed or decomposed, so NFC and NFD text meet', () => {
    const nfc = 'café résumé';
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    expect(analyze(nfd)).toEqual(analyze(nfc));
    expect(analyze(nfc)).toEqual(analyze('cafe resume'));
    expect(foldText('ÉCOLE')).toBe('ecole');
  });

  it('keeps scripts written without spaces as overlapping bigrams', () => {
    expect(analyze('東京都')).toEqual(['東京', '京都']);
    expect(analyze('猫')).toEqual(['猫']);
    // Mixed runs split where the script changes.
    expect(analyze('Tokyo東京')).toEqual(['tokyo', '東京']);
  });

  it('keeps words of other scripts whole instead of dropping them', () => {
    expect(analyze('Привет мир')).toEqual(['привет', 'мир']);
    expect(analyze('שלום עולם')).toEqual(['שלום', 'עולם']);
    expect(analyze('مرحبا بالعالم')).toEqual(['مرحبا', 'بالعالم']);
    expect(analyze('नमस्ते दुनिया')).toEqual(['नमस्ते', 'दुनिया']);
  });

  it('keeps numbers and mixed tokens', () => {
    expect(analyze('PostgreSQL 15 on S3 since 2023')).toEqual(['postgresql', '15', 's3', 'sinc', '2023']);
  });

  it('drops the words of asking from a question only', () => {
    expect(analyzeQuery('Do you remember what I said about the deploy?')).toEqual(['deploy']);
    expect(analyze('I remember the deploy')).toEqual(['rememb', 'deploy']);
  });
});

describe('nameTerms', () => {
  it('takes capitalised words after the first, and shaped tokens', () => {
    expect([...nameTerms('What does Melanie like about LGBTQ events in S3?')].sort()).toEqual(['lgbtq', 'melani', 's3']);
    expect([...nameTerms('Where does the team deploy?')]).toEqual([]);
  });
});

describe('surfaceWords', () => {
  it('names each stem by a word of the text it came from, else the stem itself', () => {
    expect(surfaceWords('She loves outdoor activities and painting.', ['activ', 'paint', 'zzz'])).toEqual(['activities', 'painting', 'zzz']);
  });
});

describe('eachTermSpan', () => {
  const spans = (text: string) => {
    const out: string[] = [];
    eachTermSpan(text, (term, start, end) => out.push(`${term}=${text.slice(start, end)}`));
    return out;
  };

  it('gives each term with the word as written, stop words as themselves', () => {
    expect(spans('Why: she PAINTS, 15x!')).toEqual(['why=Why', 'she=she', 'paint=PAINTS', '15x=15x']);
    expect(spans("Caroline's")).toEqual(['carolin=Caroline', 's=s']);
  });

  it('spans folded and decomposed words whole, and each pair of an unspaced script', () => {
    const nfd = 'cafe\u0301 — naïve'.normalize('NFD');
    expect(spans(nfd)).toEqual([`cafe=${nfd.slice(0, 5)}`, `naiv=${nfd.slice(8)}`]);
    expect(spans('Tokyo東京都 🎉 猫')).toEqual(['tokyo=Tokyo', '東京=東京', '京都=京都', '猫=猫']);
    expect(spans('𝐀𝐁 привет мир')).toEqual(['ab=𝐀𝐁', 'привет=привет', 'мир=мир']);
  });

  it('finds the terms analyze finds, in order', () => {
    const text = 'The deploys of 2023 — café, 東京都; Привет! שלום عالم 🎉 naïve résumé';
    const terms: string[] = [];
    eachTermSpan(text, (term) => terms.push(term));
    expect(terms.filter((t) => !isStopWord(t))).toEqual(analyze(text));
  });
});
