import { describe, expect, it } from 'vitest';
import { generateRecallFixture, type EvalQuestion } from '../../bench/recall-eval/fixture.js';
import { scoreRecall } from '../../bench/recall-eval/score.js';
import { parseManifest, selectFromManifest } from '../../bench/recall-eval/scripted-selector.js';
import { parseMemoryFile } from '../../common/memory-file/index.js';
import { formatManifest, type MemoryFile } from '../../main/core/auto-memory/memory-files.js';

const q = (id: string, answer: string | null, extra: Partial<EvalQuestion> = {}): EvalQuestion => ({
  id, question: id, category: answer === null ? 'abstention' : 'project-fact', answer, ...extra,
});

describe('scoreRecall', () => {
  it('counts a hit only inside the first k, and an abstention only when nothing was recalled', () => {
    const questions = [q('a', 'x.md'), q('b', 'y.md'), q('c', null), q('d', null)];
    const recalled = new Map([
      ['a', ['1.md', '2.md', 'x.md']],
      ['b', ['1.md', '2.md', '3.md', '4.md', '5.md', 'y.md']],
      ['c', []],
      ['d', ['z.md']],
    ]);
    const s = scoreRecall(questions, recalled, 5);
    expect(s).toMatchObject({ answerable: 2, hits: 1, recallAtK: 0.5, abstentions: 2, abstentionRate: 0.5 });
    expect(s.byCategory['project-fact']).toEqual({ questions: 2, hits: 1, rate: 0.5 });
    expect(scoreRecall(questions, recalled, 6).hits).toBe(2);
  });

  it('flags a knowledge update whose superseded memory is recalled ahead of the newer one', () => {
    const ku = (id: string) => q(id, 'new.md', { category: 'knowledge-update', superseded: 'old.md' });
    const recalled = new Map([
      ['ahead', ['old.md', 'new.md']],
      ['behind', ['new.md', 'old.md']],
      ['alone', ['old.md']],
    ]);
    const s = scoreRecall([ku('ahead'), ku('behind'), ku('alone')], recalled);
    expect(s.staleAhead).toBe(2);
    expect(s.hits).toBe(2);
  });

  it('refuses a question with no recorded recall', () => {
    expect(() => scoreRecall([q('a', 'x.md')], new Map())).toThrow(/question a/);
  });
});

describe('the generated fixture', () => {
  const fixture = generateRecallFixture();
  const byPath = new Map(fixture.memories.map((m) => [m.relPath, m]));

  it('holds 500 distinct memories and 200+ questions whose answers exist; updates are newer than what they replace', () => {
    expect(byPath.size).toBe(500);
    expect(fixture.questions.length).toBeGreaterThanOrEqual(200);
    for (const x of fixture.questions) if (x.answer !== null) expect(byPath.has(x.answer), x.id).toBe(true);
    const updates = fixture.questions.filter((x) => x.category === 'knowledge-update');
    expect(updates.length).toBeGreaterThanOrEqual(30);
    for (const u of updates) expect(byPath.get(u.answer!)!.mtimeMs).toBeGreaterThan(byPath.get(u.superseded!)!.mtimeMs);
    expect(fixture.questions.filter((x) => x.answer === null).length).toBeGreaterThanOrEqual(20);
  });

  it('is the same vault for the same seed, and another for another seed', () => {
    expect(generateRecallFixture()).toEqual(fixture);
    expect(generateRecallFixture(22).questions).not.toEqual(fixture.questions);
  });
});

describe('the scripted selector', () => {
  const file = (relPath: string, description: string, mtimeMs: number): MemoryFile => {
    const text = `---\nname: n\ndescription: ${JSON.stringify(description)}\ntype: project\n---\n\nbody\n`;
    return { ...parseMemoryFile(text), relPath, absPath: `/m/${relPath}`, mtimeMs, size: text.length, text };
  };
  const manifest = parseManifest(
    formatManifest([
      file('owner_new.md', 'Atlas project owner changed to Mei Lin', 2_000_000_000_000),
      file('owner_old.md', 'Atlas project owner: Priya Raman', 1_900_000_000_000),
      file('atlas_db.md', 'Atlas database: SQLite', 1_950_000_000_000),
      file('ember_owner.md', 'Ember project owner: Omar Farouk', 1_950_000_000_000),
    ]),
  );

  it('reads the product manifest and picks by meaning from descriptions only, newest first', () => {
    expect(manifest).toHaveLength(4);
    expect(selectFromManifest('Who is in charge of Atlas?', manifest)).toEqual(['owner_new.md', 'owner_old.md']);
  });

  it('picks nothing for a name the descriptions never mention', () => {
    expect(selectFromManifest('Who is in charge of Orchid?', manifest)).toEqual([]);
  });
});
