import { describe, expect, it } from 'vitest';
import { minimalChange } from '../../renderer/src/features/vault/code-editor';

const apply = (text: string, c: { from: number; to: number; insert: string }) => text.slice(0, c.from) + c.insert + text.slice(c.to);

describe('bringing a merged version into the editor', () => {
  it('replaces only the part that differs, so the cursor elsewhere stays put', () => {
    const before = 'one\ntwo\nthree\n';
    const after = 'one\ntwo, and more\nthree\n';
    const change = minimalChange(before, after);
    expect(change).toEqual({ from: 7, to: 7, insert: ', and more' });
    expect(apply(before, change)).toBe(after);
  });

  it('handles repeats, deletions and whole replacements', () => {
    for (const [a, b] of [
      ['aaa', 'aa'],
      ['', 'new'],
      ['old', ''],
      ['abcabc', 'abcXabc'],
      ['same', 'same'],
    ] as const) {
      expect(apply(a, minimalChange(a, b))).toBe(b);
    }
  });
});
