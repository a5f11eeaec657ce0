import { describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../../../../common/memory-file/index.js';
import type { MemoryFile } from '../../../../main/core/auto-memory/memory-files.js';
import { MemoryRanker } from '../../../../main/core/auto-memory/recall-rank.js';

const T = Date.UTC(2026, 10, 1);
const file = (relPath: string, description: string, mtimeMs = T, extra = ''): MemoryFile => {
  const text = `---\nname: ${relPath.replace(/\.md$/, '')}\ndescription: ${description}\ntype: user\n${extra}---\n\n${description}\n`;
  return { ...parseMemoryFile(text), relPath, absPath: `/m/${relPath}`, mtimeMs, size: text.length, text };
};
const HOUR = 3_600_000;

describe('MemoryRanker', () => {
  it('weighs a name in the question above common words, so the named person’s memory wins', () => {
    const ranker = new MemoryRanker([
      file('a.md', 'Priya enjoys hiking on weekends', T),
      file('b.md', 'Tom enjoys hiking and climbing on weekends with friends', T + 5 * HOUR),
      file('c.md', 'Priya works on the payments team', T + 10 * HOUR),
      file('d.md', 'Tom works on the search team', T + 15 * HOUR),
    ]);
    const [top] = ranker.rankExplained('What does Priya enjoy on weekends?', 2);
    expect(top!.relPath).toBe('a.md');
    expect(top!.why.names).toEqual(['Priya']);
    expect(top!.why.words).toEqual(expect.arrayContaining(['Priya', 'enjoy', 'weekends']));
  });

  it('matches inflections and folded accents through the shared analyzer', () => {
    const ranker = new MemoryRanker([file('paint.md', 'She painted the café mural'), file('other.md', 'Lunch is at noon', T + 5 * HOUR)]);
    expect(ranker.rank('who is painting the cafe', 5)).toEqual(['paint.md']);
  });

  it('never returns a memory that holds none of the question’s words, even through the second hop', () => {
    const ranker = new MemoryRanker([
      file('deploy.md', 'Deploys go out on Fridays through the release train'),
      file('train.md', 'The release train leaves every second week', T + 5 * HOUR),
    ]);
    const found = ranker.rankExplained('when do deploys happen', 5);
    expect(found.map((r) => r.relPath)).toEqual(['deploy.md']);
  });

  it('lifts a memory written in the same conversation as a strong match, and says so', () => {
    const session = 'originSessionId: 5b0c7a52-1111-4222-8333-944445555666\n';
    const ranker = new MemoryRanker([
      file('move.md', 'Ana moved to Lisbon in May for the new office', T, session),
      file('office.md', 'Ana says the new office has a rooftop', T + 60_000, session),
      file('rooftop.md', 'The old office rooftop was closed', T + 30 * 24 * HOUR),
    ]);
    const ranked = ranker.rankExplained('Ana new office rooftop', 3);
    expect(ranked[0]!.relPath).toBe('office.md');
    expect(ranked.find((r) => r.relPath === 'move.md')!.why.together).toBeGreaterThan(0);
    expect(ranked.find((r) => r.relPath === 'rooftop.md')!.why.together).toBe(0);
  });

  it('does not treat a folder copied at once as one conversation', () => {
    // Two hundred files with one mtime (an import, a checkout): no lift among them.
    const files = Array.from({ length: 200 }, (_, i) => file(`n${i}.md`, i === 7 ? 'The kiwi budget is 40k' : `Note ${i} about kiwi planning`));
    files.push(file('alone.md', 'Kiwi budget raised to 55k', T + 40 * 24 * HOUR));
    const ranked = new MemoryRanker(files).rankExplained('what is the kiwi budget', 3);
    expect(ranked.every((r) => r.why.together === 0)).toBe(true);
    expect(ranked.slice(0, 2).map((r) => r.relPath).sort()).toEqual(['alone.md', 'n7.md']);
  });

  it('finds a memory through a typo or a run-together word of the question, and shows the word as typed', () => {
    const ranker = new MemoryRanker([
      file('fest.md', 'Caroline went to the pride festival with friends'),
      file('trip.md', 'Melanie took a road trip with her family', T + HOUR),
      file('other.md', 'Caroline and Melanie talk every week', T + 2 * HOUR),
    ]);
    const [fest] = ranker.rankExplained('When did Caroline go to the pride fesetival?', 1);
    expect(fest!.relPath).toBe('fest.md');
    expect(fest!.why.words).toEqual(expect.arrayContaining(['fesetival']));
    const [trip] = ranker.rankExplained('When did Melanie go on a roadtrip?', 1);
    expect(trip!.relPath).toBe('trip.md');
    expect(trip!.why.words).toEqual(['Melanie', 'roadtrip']);
  });

  it('gives the first places to memories that do not repeat each other', () => {
    // Three restatements of one visit outscore a different visit; the first two places should hold both visits.
    const ranker = new MemoryRanker([
      file('visit-1.md', 'Nora visited the Louvre museum in Paris with her sister'),
      file('visit-2.md', 'Nora visited the Louvre museum in Paris with her sister in May', T + HOUR),
      file('visit-3.md', 'With her sister, Nora visited the Louvre museum in Paris', T + 2 * HOUR),
      file('other-visit.md', 'Nora visited a science museum in Boston', T + 3 * HOUR),
      ...Array.from({ length: 12 }, (_, i) => file(`filler-${i}.md`, `Nora likes topic ${i} and the weather`, T + (4 + i) * HOUR)),
    ]);
    const ranked = ranker.rankExplained('Which museum has Nora visited?', 4);
    expect(ranked[1]!.relPath).toBe('other-visit.md');
    expect(ranked[2]!.score).toBeGreaterThan(ranked[1]!.score);
  });

  it('answers nothing for a question of stop words only', () => {
    expect(new MemoryRanker([file('a.md', 'Anything at all')]).rank('what is it', 5)).toEqual([]);
  });
});
