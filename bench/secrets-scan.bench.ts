import { scanText, secretRules } from '../main/core/secrets/index.js';
import { generateFixtures, generateNotes } from '../test/fixtures/secrets/generate.js';
import { line, median, type Bench } from './harness.js';

/**
 * `secrets-scan` (issue 6): scanner throughput in MB/s over generated notes, against a naive scan with
 * one regex made of every rule's pattern (no keyword prefilter, no validation), plus recall and
 * false-positive rate on the labelled fixtures.
 */
const corpusChars = 4_000_000;
const runs = 5;

function naiveRegex(): RegExp {
  const sources = secretRules.map((r) => r.regex.source.replace(/\(\?<([A-Za-z]\w*)>/g, '(?:'));
  return new RegExp(sources.map((s) => `(?:${s})`).join('|'), 'gi');
}

function throughput(notes: string[], scan: (note: string) => number): number {
  const chars = notes.reduce((n, s) => n + s.length, 0);
  scan(notes[0]!);
  for (const note of notes) scan(note);
  const rates: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    for (const note of notes) scan(note);
    rates.push(chars / 1e6 / ((performance.now() - start) / 1000));
  }
  return median(rates);
}

const bench: Bench = {
  name: 'secrets-scan',
  async run() {
    const notes = generateNotes(corpusChars);
    const naive = naiveRegex();
    const ours = throughput(notes, (note) => scanText(note).length);
    const baseline = throughput(notes, (note) => {
      let n = 0;
      naive.lastIndex = 0;
      for (let m = naive.exec(note); m !== null; m = naive.exec(note)) {
        n++;
        if (m[0].length === 0) naive.lastIndex++;
      }
      return n;
    });

    const { positives, negatives } = generateFixtures();
    const hits = positives.filter((p) => scanText(p.text).some((f) => f.rule === p.rule && f.line === p.line)).length;
    const flagged = negatives.filter((n) => scanText(n.text).length > 0).length;
    return [
      line('secrets-scan', 'throughput', 'MB/s', ours, baseline, { corpusMB: corpusChars / 1e6, notes: notes.length }),
      line('secrets-scan', 'recall', '%', (100 * hits) / positives.length, null, { positives: positives.length }),
      line('secrets-scan', 'false-positive-rate', '%', (100 * flagged) / negatives.length, null, { negatives: negatives.length }),
    ];
  },
};

export default bench;
