import { scanText, secretRules } from '../main/core/secrets/index.js';
import { generateFixtures, generateNotes } from '../test/fixtures/secrets/generate.js';
import { scoreHeldOut } from '../test/fixtures/secrets/held-out.js';
import { describeScore, scoreCorpus } from '../test/fixtures/secrets/score.js';
import { line, median, type Bench } from './harness.js';

/**
 * `secrets-scan` (docs/memory.md#auto-memory): scanner throughput in MB/s over generated notes, against a naive scan with
 * one regex made of every rule's pattern (no keyword prefilter, no validation), plus recall and
 * false-positive rate on the labelled fixtures: overall, per family, and the ten weakest groups (by rule
 * and by assignment form). Other scanners' published test vectors are scored by `secrets-peers`.
 * The per-family table goes to stderr for people; stdout stays JSON lines.
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
    const familyOf = new Map(secretRules.map((r) => [r.id, r.family as string]));
    const score = scoreCorpus((text) => scanText(text), positives, negatives, (rule) => familyOf.get(rule) ?? 'unknown');
    process.stderr.write(`${describeScore(score).join('\n')}\n`);
    const heldOut = scoreHeldOut((text) => scanText(text));
    const perFamily = score.families.flatMap((f) => [
      ...(f.recall ? [line('secrets-scan', `recall:${f.family}`, '%', 100 * f.recall.rate, null, { positives: f.recall.total })] : []),
      ...(f.falseAlarms ? [line('secrets-scan', `false-positive-rate:${f.family}`, '%', 100 * f.falseAlarms.rate, null, { negatives: f.falseAlarms.total })] : []),
    ]);
    return [
      line('secrets-scan', 'throughput', 'MB/s', ours, baseline, { corpusMB: corpusChars / 1e6, notes: notes.length }),
      line('secrets-scan', 'recall', '%', 100 * score.recall, null, { positives: positives.length }),
      line('secrets-scan', 'false-positive-rate', '%', 100 * score.falseAlarmRate, null, { negatives: negatives.length }),
      ...perFamily,
      line('secrets-scan', 'held-out-recall', '%', 100 * heldOut.recall, null, { missed: heldOut.missed }),
      line('secrets-scan', 'held-out-false-positive-rate', '%', 100 * heldOut.falseAlarmRate, null, { flagged: heldOut.flagged }),
      line('secrets-scan', 'weakest', '%', 100 * (score.weakest[0]?.rate ?? 1), null, {
        weakest: score.weakest.map((w) => ({ group: w.group, found: w.found, total: w.total })),
      }),
    ];
  },
};

export default bench;
