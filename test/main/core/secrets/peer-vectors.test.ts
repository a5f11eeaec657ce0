import { describe, expect, it } from 'vitest';
import { scanText } from '../../../../main/core/secrets/index.js';
import { scorePeerVectors } from '../../../fixtures/secrets/peer-vectors.js';
import { describeScore } from '../../../fixtures/secrets/score.js';

describe("the scanner on other scanners' published test vectors (gitleaks, detect-secrets)", () => {
  const peer = scorePeerVectors((text) => scanText(text));
  const report = [...describeScore(peer.score), `placeholders flagged ${(100 * peer.placeholdersFlagged).toFixed(1)}%`, JSON.stringify(peer.counts)].join('\n');

  it('finds at least 90% of the real-looking secrets', () => {
    expect(peer.counts.secret).toBeGreaterThanOrEqual(60);
    expect(peer.score.recall, report).toBeGreaterThanOrEqual(0.9);
  });

  it('raises at most 8% false alarms on what they must not flag', () => {
    expect(peer.counts['not-secret']).toBeGreaterThanOrEqual(60);
    expect(peer.score.falseAlarmRate, `${report}\nflagged: ${JSON.stringify(peer.score.flagged)}`).toBeLessThanOrEqual(0.08);
  });
});
