import { describe, expect, it } from 'vitest';
import { naturalCompare } from '../../../common/text/natural-sort.js';

describe('naturalCompare', () => {
  it('orders numbers by value, letters case-blind, and stays a total order', () => {
    const names = ['note 1001', 'Note 104', 'note 11', 'note 2', 'note 007', 'note 7', 'apple', 'Banana', 'banana', 'été', 'note'];
    expect([...names].sort(naturalCompare)).toEqual(['apple', 'Banana', 'banana', 'été', 'note', 'note 2', 'note 007', 'note 7', 'note 11', 'Note 104', 'note 1001']);
    for (const a of names) for (const b of names) expect(Math.sign(naturalCompare(a, b)) + Math.sign(naturalCompare(b, a))).toBe(0);
  });
});
