import { describe, expect, it } from 'vitest';
import { instructionLines, parseNotes, readableNotes } from '../../renderer/src/features/vault/notes-sections';

const NOTES = [
  '# Session Title',
  '_A short, distinctive title for this session_',
  'Fix the login redirect',
  '',
  '# Current State',
  '_What is being worked on right now_Testing the redirect on Safari.',
  '',
  '# Workflow',
  '_The commands usually run_',
  '',
  '# Worklog',
  '_A terse step-by-step log_',
  '- read auth.ts',
  '- fixed the cookie path',
  '',
].join('\n');

describe('session notes read as notes', () => {
  it('separates each instruction from the notes, including notes run on after it on the same line', () => {
    const { sections } = parseNotes(NOTES);
    expect(sections.map((s) => [s.heading, s.body])).toEqual([
      ['Session Title', 'Fix the login redirect'],
      ['Current State', 'Testing the redirect on Safari.'],
      ['Workflow', ''],
      ['Worklog', '- read auth.ts\n- fixed the cookie path'],
    ]);
    expect(sections[1]!.instruction).toBe('What is being worked on right now');
  });

  it('shows written sections without their instructions, names the empty ones, and takes the title', () => {
    const { markdown, empty, title } = readableNotes(NOTES);
    expect(title).toBe('Fix the login redirect');
    expect(empty).toEqual(['Workflow']);
    expect(markdown).toContain('### Current State\n\nTesting the redirect on Safari.');
    expect(markdown).not.toMatch(/_What is being|_The commands|_A terse/);
  });

  it('finds the instruction lines for the editor, CRLF or not', () => {
    expect([...instructionLines(NOTES)]).toEqual([2, 6, 9, 12]);
    expect(parseNotes(NOTES.replace(/\n/g, '\r\n')).sections.length).toBe(4);
  });
});
