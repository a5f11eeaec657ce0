import { describe, expect, it } from 'vitest';
import { merge3, resolveChunks, splitLines } from '../../../common/text/merge3.js';

describe('merge3', () => {
  const base = 'one\ntwo\nthree\nfour\n';

  it('merges edits of different lines into one text', () => {
    const mine = 'ONE\ntwo\nthree\nfour\n';
    const theirs = 'one\ntwo\nthree\nFOUR\n';
    expect(merge3(base, mine, theirs)).toEqual({ clean: true, text: 'ONE\ntwo\nthree\nFOUR\n' });
  });

  it('takes the one side that changed, and agrees when both made the same change', () => {
    expect(merge3(base, base, 'x\n')).toEqual({ clean: true, text: 'x\n' });
    expect(merge3(base, 'y\n', base)).toEqual({ clean: true, text: 'y\n' });
    expect(merge3(base, 'z\n', 'z\n')).toEqual({ clean: true, text: 'z\n' });
  });

  it('reports overlapping edits as a conflict with all three versions of the lines', () => {
    const result = merge3(base, 'one\n2\nthree\nfour\n', 'one\nTWO\nthree\nfour\n');
    expect(result.clean).toBe(false);
    if (result.clean) return;
    expect(result.chunks).toEqual([
      { kind: 'same', text: 'one\n' },
      { kind: 'conflict', base: 'two\n', mine: '2\n', theirs: 'TWO\n' },
      { kind: 'same', text: 'three\nfour\n' },
    ]);
    expect(resolveChunks(result.chunks, 'theirs')).toBe('one\nTWO\nthree\nfour\n');
    expect(resolveChunks(result.chunks, 'mine')).toBe('one\n2\nthree\nfour\n');
  });

  it('keeps CRLF line endings and a last line without a newline', () => {
    const crlf = 'a\r\nb\r\nc';
    expect(splitLines(crlf)).toEqual(['a\r\n', 'b\r\n', 'c']);
    expect(merge3(crlf, 'A\r\nb\r\nc', 'a\r\nb\r\nC')).toEqual({ clean: true, text: 'A\r\nb\r\nC' });
  });
});
