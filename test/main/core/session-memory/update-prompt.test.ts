import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import {
  DEFAULT_NOTES_TEMPLATE,
  DEFAULT_UPDATE_PROMPT,
  analyzeNotesSize,
  buildUpdatePrompt,
  condensationReminder,
  notesForPrompt,
  parseSections,
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

  it('handles 5 MB of notes: the oversized section is cut in the prompt, with a note, and still named for condensation', () => {
    const notes = fill('# Worklog', 1_300_000);
    const prompt = buildUpdatePrompt(DEFAULT_UPDATE_PROMPT, notes, '/n', caps);
    expect(prompt).toContain('over the 12000-token limit');
    expect(prompt).toContain('"# Worklog" is about 1300');
    // About 8,000 tokens at most, where the whole file would be 1.3 million.
    expect(prompt.length).toBeLessThan(DEFAULT_UPDATE_PROMPT.length + DEFAULT_NOTES_TEMPLATE.length + 20_000);
    expect(prompt).toMatch(/\[… cut from this prompt only: about 129\d{4} more tokens of this section are in the file and not shown\./);
  });

  it('shows an oversized section’s first whole lines, exactly as in the file, and leaves the other sections whole', () => {
    const line = 'The parser keeps a stack of open blocks. '.repeat(3);
    const notes = DEFAULT_NOTES_TEMPLATE.replace('# Learnings\n', `# Learnings\n${`${line}\n`.repeat(2_000)}`).replace('# Current State\n', '# Current State\nParsing.\n');
    const { text, cut } = notesForPrompt(notes, caps);
    expect(cut).toEqual(['# Learnings']);
    const learnings = parseSections(text).sections.find((s) => s.title === 'Learnings')!.body;
    const [shown, rest] = learnings.split('[… cut from this prompt only');
    expect(shown!.length).toBeLessThanOrEqual(16_000);
    expect(notes).toContain(shown);
    expect(shown!.endsWith(`${line}\n`)).toBe(true);
    expect(rest).toContain('do not copy this line into the file.]');
    for (const s of parseSections(text).sections.filter((x) => x.title !== 'Learnings')) expect(notes).toContain(s.raw);
    expect(notesForPrompt(DEFAULT_NOTES_TEMPLATE, caps)).toEqual({ text: DEFAULT_NOTES_TEMPLATE, cut: [] });
  });
});
