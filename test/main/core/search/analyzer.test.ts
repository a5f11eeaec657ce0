import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, foldText, nameTerms, surfaceWords } from '../../../../main/core/search/analyzer.js';

describe('analyze', () => {
  it('stems English words with Snowball so inflections meet', () => {
    expect(analyze('painting paints painted')).toEqual(['paint', 'paint', 'paint']);
    expect(analyze('activities')).toEqual(analyze('activity'));
    expect(analyze('deploys deployed')).toEqual(['deploy', 'deploy']);
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
