import { describe, expect, it } from 'vitest';
import { scanText } from '../../../../main/core/secrets/index.js';
import { describePeerScore, rate, scorePeers } from '../../../fixtures/secrets/peer-score.js';
import { peers } from '../../../fixtures/secrets/peer-vectors.js';

describe("the scanner on other scanners' published test vectors (bench/peer-vectors), in six note forms", () => {
  const score = scorePeers((text) => scanText(text));
  const report = describePeerScore(score).join('\n');

  it('reads every peer', () => {
    for (const p of peers) expect(score.byPeer[p].found.trials, p).toBeGreaterThan(0);
    expect(score.counts.positive).toBeGreaterThan(500);
    expect(score.counts.negative).toBeGreaterThan(300);
  });

  it('finds at least 90% of their real-looking secrets', () => {
    expect(rate(score.found), report).toBeGreaterThanOrEqual(0.9);
  });

  it('raises at most 8% false alarms on what they must not flag and on their placeholders', () => {
    expect(rate(score.falseAlarms), report).toBeLessThanOrEqual(0.08);
  });
});
