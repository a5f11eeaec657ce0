import { describe, expect, it } from 'vitest';
import { nearDuplicates, shingleHashes, shingles } from '../../../../main/core/vault/near-duplicates.js';

describe('near-duplicate detection at scale', () => {
  it('hashes exactly the word 3-shingles, case-blind, in any script', () => {
    for (const body of ['A b c d', 'Tabs, not spaces! Tabs not spaces.', 'Ünïcode wörds — 日本 語 テスト 123', 'one', 'two words', '']) {
      expect(shingleHashes(body).length).toBe(shingles(body).size);
    }
    expect([...shingleHashes('Tabs NOT spaces')]).toEqual([...shingleHashes('tabs, not... spaces')]);
    expect([...shingleHashes('tabs not spaces')]).not.toEqual([...shingleHashes('tabs not space')]);
  });

  it('finds a near-duplicate pair among memories that share common boilerplate', () => {
    const boilerplate = 'the user prefers that the agent always';
    const memories = Array.from({ length: 60 }, (_, i) => ({
      path: `m${i}.md`,
      group: 'g',
      description: `d${i}`,
      body: `${boilerplate} topic${i} alpha${i} beta${i} gamma${i} delta${i}`,
    }));
    memories.push({ path: 'copy.md', group: 'g', description: 'other', body: memories[7]!.body });
    expect(nearDuplicates(memories, 0.8)).toEqual([{ a: 'copy.md', b: 'm7.md', why: 'similar-body' }]);
  });
});
