import { describe, expect, it } from 'vitest';
import { scanText, secretRules } from '../../../../main/core/secrets/index.js';
import { generateFixtures, type Sample } from '../../../fixtures/secrets/generate.js';
import { heldOutLookAlikes, heldOutPositives, scoreHeldOut } from '../../../fixtures/secrets/held-out.js';
import { describeScore, scoreCorpus } from '../../../fixtures/secrets/score.js';

const { positives, negatives } = generateFixtures();
const familyOf = new Map(secretRules.map((r) => [r.id, r.family]));

function detected(sample: Sample): boolean {
  return scanText(sample.text).some((f) => f.rule === sample.rule && f.line === sample.line);
}

describe('secret scanner on the generated fixtures', () => {
  it('has at least 300 labelled positives and 300 hard negatives, every label a known rule', () => {
    expect(positives.length).toBeGreaterThanOrEqual(300);
    expect(negatives.length).toBeGreaterThanOrEqual(300);
    for (const p of positives) expect(familyOf.has(p.rule!), p.id).toBe(true);
  });

  it('finds at least 97% of the positives, with the labelled rule on the labelled line', () => {
    const perFamily = new Map<string, { hit: number; total: number; missed: string[] }>();
    for (const p of positives) {
      const family = familyOf.get(p.rule!)!;
      const row = perFamily.get(family) ?? { hit: 0, total: 0, missed: [] };
      row.total++;
      if (detected(p)) row.hit++;
      else row.missed.push(p.id);
      perFamily.set(family, row);
    }
    const hits = [...perFamily.values()].reduce((n, r) => n + r.hit, 0);
    const recall = hits / positives.length;
    const report = [...perFamily.entries()]
      .map(([family, r]) => `${family}: ${r.hit}/${r.total}${r.missed.length ? ` missed ${r.missed.slice(0, 5).join(', ')}` : ''}`)
      .join('\n');
    expect(recall, `recall ${(recall * 100).toFixed(1)}% per family:\n${report}`).toBeGreaterThanOrEqual(0.97);
  });

  it('flags at most 2% of the hard negatives', () => {
    const flagged = negatives.filter((n) => scanText(n.text).length > 0);
    const rate = flagged.length / negatives.length;
    const report = flagged.map((n) => `${n.id}: ${scanText(n.text).map((f) => f.rule).join(', ')}`).join('\n');
    expect(rate, `false positives ${(rate * 100).toFixed(1)}%:\n${report}`).toBeLessThanOrEqual(0.02);
  });

  it('covers every family of the issue with positives', () => {
    const families = new Set(positives.map((p) => familyOf.get(p.rule!)));
    for (const family of ['cloud', 'ai', 'vcs', 'chat', 'payments', 'registry', 'observability', 'dev-tooling', 'private-key', 'jwt', 'connection-string', 'generic']) {
      expect(families.has(family as never), family).toBe(true);
    }
  });

  it('finds at least 90% in every family and every assignment form, and no family raises 5% false alarms', () => {
    const score = scoreCorpus((text) => scanText(text), positives, negatives, (rule) => familyOf.get(rule) ?? 'unknown');
    const report = describeScore(score).join('\n');
    for (const f of score.families) {
      if (f.recall) expect(f.recall.rate, `${f.family}\n${report}`).toBeGreaterThanOrEqual(0.9);
      if (f.falseAlarms) expect(f.falseAlarms.rate, `${f.family}\n${report}`).toBeLessThanOrEqual(0.05);
    }
    for (const w of score.weakest.filter((g) => g.group.startsWith('form '))) expect(w.rate, `${w.group}\n${report}`).toBeGreaterThanOrEqual(0.9);
  });

  it('finds the forms and families the first corpus missed, and ignores their look-alikes', () => {
    const forms = ['go-var', 'makefile', 'java-property', 'php-append', 'xml-element', 'k8s-env', 'hcl'];
    for (const form of forms) expect(positives.some((p) => p.category === form), form).toBe(true);
    const newRules = ['slack-config-refresh-token', 'snyk-api-token', 'sonar-api-token', 'notion-api-token', 'dynatrace-api-token', 'langsmith-api-key', 'cloudflare-origin-ca-key', 'docker-config-auth', 'microsoft-teams-webhook', 'kubernetes-secret-data', 'ibm-cos-hmac-secret', 'jfrog-reference-token'];
    for (const rule of newRules) {
      const mine = positives.filter((p) => p.rule === rule);
      expect(mine.length, rule).toBeGreaterThan(0);
      expect(mine.filter(detected).length / mine.length, rule).toBeGreaterThanOrEqual(0.9);
    }
    const lookAlikes = negatives.filter((n) => n.id.startsWith('neg-near-miss') || n.id.startsWith('neg-form-placeholder') || n.id.startsWith('neg-published'));
    expect(lookAlikes.length).toBeGreaterThanOrEqual(100);
    expect(lookAlikes.filter((n) => scanText(n.text).length > 0).map((n) => n.id)).toEqual([]);
  });

  it('holds both targets on fixtures from another seed, so the rules are not tuned to one draw', () => {
    const other = generateFixtures(20_261_202);
    const recall = other.positives.filter(detected).length / other.positives.length;
    const falsePositives = other.negatives.filter((n) => scanText(n.text).length > 0).length / other.negatives.length;
    expect(recall).toBeGreaterThanOrEqual(0.97);
    expect(falsePositives).toBeLessThanOrEqual(0.02);
  });

  it('produces the same fixtures from the same seed and different ones from another seed', () => {
    expect(generateFixtures().positives.map((p) => p.text)).toEqual(positives.map((p) => p.text));
    expect(generateFixtures(7).positives[0]!.text).not.toBe(positives[0]!.text);
  });

  it('flags at least 90% of the held-out notes with a secret and at most 5% of their look-alikes', () => {
    expect(heldOutPositives.length).toBeGreaterThanOrEqual(40);
    expect(heldOutLookAlikes.length).toBeGreaterThanOrEqual(40);
    const score = scoreHeldOut((text) => scanText(text));
    expect(score.recall, `missed ${score.missed.join(', ')}`).toBeGreaterThanOrEqual(0.9);
    expect(score.falseAlarmRate, `flagged ${score.flagged.join(', ')}`).toBeLessThanOrEqual(0.05);
  });
});
