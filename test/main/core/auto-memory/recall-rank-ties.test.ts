import { describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../../../../common/memory-file/index.js';
import type { MemoryFile } from '../../../../main/core/auto-memory/memory-files.js';
import { MemoryRanker } from '../../../../main/core/auto-memory/recall-rank.js';

const DAY = 86_400_000;
const file = (relPath: string, description: string, body: string, mtimeMs: number): MemoryFile => {
  const text = `---\nname: ${relPath}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;
  return { ...parseMemoryFile(text), relPath, absPath: `/m/${relPath}`, mtimeMs, size: text.length, text };
};

describe('MemoryRanker ties', () => {
  it('puts the newer of two near-equal matches first (a fact and the one that replaced it), and leaves clear winners alone', () => {
    const t = Date.UTC(2026, 10, 1);
    const ranker = new MemoryRanker([
      file('m1.md', 'Atlas budget: $40k a quarter', 'Atlas has a budget of $40k a quarter.', t - 90 * DAY),
      file('m2.md', 'Atlas budget changed: $55k a quarter', 'Atlas has a budget of $55k a quarter.', t - 10 * DAY),
      file('owner.md', 'Atlas owner: Mei', 'Mei owns Atlas.', t),
    ]);
    expect(ranker.rank('what is the Atlas budget', 2)).toEqual(['m2.md', 'm1.md']);
    expect(ranker.rank('who owns Atlas', 1)).toEqual(['owner.md']);
  });
});
