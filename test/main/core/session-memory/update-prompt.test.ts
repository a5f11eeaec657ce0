import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import {
  DEFAULT_NOTES_TEMPLATE,
  DEFAULT_UPDATE_PROMPT,
  analyzeNotesSize,
  buildUpdatePrompt,
  condensationReminder,
} from '../../../../main/core/session-memory/index.js';

const caps = defaultMemoryConfig.sessionMemory;
const fill = (header: string, tokens: number, notes = DEFAULT_NOTES_TEMPLATE) =>
  notes.replace(`${header}\n`, `${header}\n${'y'.repeat(tokens * 4)}\n`);

describe('the update prompt', () => {
  it('embeds the current notes and the notes path', () => {
    const prompt = buildUpdatePrompt(DEFAULT_UPDATE_PROMPT, 'NOTES $& {{notesPath}}', '/v/summary.md', caps);
    expect(prompt).toContain('<current_notes_content>\nNOTES $& {{notesPath}}\n</current_notes_content>');
    expect(prompt).toContain('The notes file is /v/summary.md.');
  });

  it('adds no condensation request while the notes are within the caps', () => {
    const notes = fill('# Worklog', 1_950);
    expect(analyzeNotesSize(notes, caps).oversized).toEqual([]);
    expect(buildUpdatePrompt(DEFAULT_UPDATE_PROMPT, notes, '/n', caps)).toBe(
      buildUpdatePrompt(DEFAULT_UPDATE_PROMPT, notes, '/n', { ...caps, maxSectionTokens: 1_000_000, maxTotalTokens: 1_000_000 }),
    );
  });

  it('names the sections over 2,000 tokens, largest first, keeping Current State and Errors & Corrections', () => {
    const notes = fill('# Learnings', 2_100, fill('# Worklog', 3_000));
    const size = analyzeNotesSize(notes, caps);
    expect(size.oversized.map((s) => s.header)).toEqual(['# Worklog', '# Learnings']);
    const text = condensationReminder(size, caps);
    expect(text).toContain('must be condensed');
    expect(text).toContain('"Current State" and "Errors & Corrections"');
    expect(text.indexOf('"# Worklog" is about 30')).toBeLessThan(text.indexOf('"# Learnings" is about 21'));
    expect(text).toContain('(limit: 2000)');
    expect(text).not.toContain('over the 12000-token limit');
  });

  it('asks to condense the whole file when it is over 12,000 tokens', () => {
    let notes = DEFAULT_NOTES_TEMPLATE;
    for (const h of ['# Worklog', '# Learnings', '# Key results', '# Workflow', '# Files and Functions', '# Task specification', '# Current State']) {
      notes = fill(h, 1_900, notes);
    }
    const size = analyzeNotesSize(notes, caps);
    expect(size.overTotal).toBe(true);
    expect(size.oversized).toEqual([]);
    const text = condensationReminder(size, caps);
    expect(text).toMatch(new RegExp(`about ${size.total} tokens, ${size.total - 12_000} over the 12000-token limit`));
    expect(text).toContain('"Current State" and "Errors & Corrections"');
  });

  it('handles 5 MB of notes', () => {
    const notes = fill('# Worklog', 1_300_000);
    const prompt = buildUpdatePrompt(DEFAULT_UPDATE_PROMPT, notes, '/n', caps);
    expect(prompt).toContain('over the 12000-token limit');
    expect(prompt).toContain('"# Worklog" is about 1300');
  });
});
