import { describe, expect, it } from 'vitest';
import { backoffDelay, batchEntries } from '../../../../main/core/team-sync/batching.js';

describe('batching and backoff', () => {
  it('fills bodies up to the byte limit in key order and sends an oversized entry alone', () => {
    const batches = batchEntries({ c: 'x'.repeat(90), a: 'x'.repeat(40), b: 'x'.repeat(40), d: null, big: 'y'.repeat(500) }, 120);
    expect(batches.map((b) => Object.keys(b))).toEqual([['a', 'b'], ['big'], ['c', 'd']]);
    for (const batch of batches.filter((b) => !('big' in b))) {
      expect(Buffer.byteLength(JSON.stringify({ entries: batch }))).toBeLessThanOrEqual(120);
    }
  });

  it('counts the exact JSON bytes, escapes and multi-byte characters included', () => {
    const entries = { 'ä.md': 'é"\n'.repeat(10), 'b.md': 'plain' };
    const body = Buffer.byteLength(JSON.stringify({ entries }));
    expect(batchEntries(entries, body)).toHaveLength(1);
    expect(batchEntries(entries, body - 1)).toHaveLength(2);
  });

  it('doubles from 500 ms, caps at 32 s, and jitters down by at most 25 %', () => {
    expect([1, 2, 3, 7, 8, 12].map((n) => backoffDelay(n, 500, 32_000, () => 0))).toEqual([500, 1000, 2000, 32_000, 32_000, 32_000]);
    expect(backoffDelay(3, 500, 32_000, () => 0.999999)).toBe(1500);
  });
});
