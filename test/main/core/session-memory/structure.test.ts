import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTES_TEMPLATE, joinSections, parseSections, restoreStructure } from '../../../../main/core/session-memory/index.js';

describe('parseSections', () => {
  it('round-trips any text', () => {
    for (const text of ['', 'no headers', '# A', '# A\n', 'pre\n# A\nbody\n# B', '\n\n# A\n\n#B not a header\n# C\n']) {
      expect(joinSections(parseSections(text))).toBe(text);
    }
  });
});

describe('restoreStructure', () => {
  it('leaves complete notes unchanged', () => {
    const notes = DEFAULT_NOTES_TEMPLATE.replace('# Worklog\n', '# Worklog\n- a\n');
    expect(restoreStructure(notes, DEFAULT_NOTES_TEMPLATE)).toBe(notes);
  });

  it('puts removed headers back at their template position, keeping the content', () => {
    const notes = DEFAULT_NOTES_TEMPLATE.replace('# Current State\n_What is being worked on right now: pending tasks and the immediate next steps_\n\n', '').replace(
      '# Worklog\n',
      '# Worklog\n- step one\n',
    );
    const restored = restoreStructure(notes, DEFAULT_NOTES_TEMPLATE);
    expect(parseSections(restored).sections.map((s) => s.title)).toEqual(parseSections(DEFAULT_NOTES_TEMPLATE).sections.map((s) => s.title));
    expect(restored).toContain('- step one');
  });

  it('rebuilds the template from an emptied file and keeps stray text first', () => {
    expect(restoreStructure('', DEFAULT_NOTES_TEMPLATE)).toBe(DEFAULT_NOTES_TEMPLATE);
    const restored = restoreStructure('just some text', DEFAULT_NOTES_TEMPLATE);
    expect(restored.startsWith('just some text\n# Session Title\n')).toBe(true);
  });
});
