import { describe, expect, it } from 'vitest';
import { generateTidyFixture, resolveRelative } from '../../bench/tidy-eval/fixture.js';
import { scoreTidy } from '../../bench/tidy-eval/score.js';

describe('the tidy-up bench', () => {
  it('resolves relative dates from the day a note was saved', () => {
    const wednesday = Date.UTC(2026, 2, 4, 15);
    expect(resolveRelative('next Friday', wednesday)).toBe('2026-03-06');
    expect(resolveRelative('next Wednesday', wednesday)).toBe('2026-03-11');
    expect(resolveRelative('yesterday', wednesday)).toBe('2026-03-03');
    expect(resolveRelative('tomorrow', wednesday)).toBe('2026-03-05');
  });

  it('plants each kind of problem in files that exist, and scores only right fixes', () => {
    const { memories, labels } = generateTidyFixture();
    const files = new Set(memories.map((m) => m.relPath));
    expect(files.size).toBe(memories.length);
    for (const [a, b] of labels.duplicates) expect(files.has(a) && files.has(b)).toBe(true);
    for (const c of labels.contradictions) expect(files.has(c.older) && files.has(c.newer)).toBe(true);
    const [[keep, copy]] = labels.duplicates as [[string, string]];
    const date = labels.dates[0]!;
    const contra = labels.contradictions[0]!;
    const score = scoreTidy(labels, [
      { file: copy, action: 'deleted', after: null },
      { file: date.file, action: 'updated', after: `is on ${date.expected}` },
      { file: contra.newer, action: 'deleted', after: null },
      { file: 'project_atlas_owner.md', action: 'updated', after: 'x' },
    ]);
    expect(score.duplicates.fixed).toBe(1);
    expect(score.dates.fixed).toBe(1);
    expect(score.contradictions.fixed).toBe(0);
    expect(score.unplanted).toBe(labels.duplicates.some(([a, b]) => a === 'project_atlas_owner.md' || b === 'project_atlas_owner.md') ? 0 : 1);
    expect(scoreTidy(labels, [{ file: keep, action: 'deleted', after: null }, { file: copy, action: 'deleted', after: null }]).duplicates.fixed).toBe(0);
  });
});
