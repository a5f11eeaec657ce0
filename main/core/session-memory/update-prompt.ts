import type { MemoryConfig } from '../../../common/config.js';
import { estimateTextTokens } from '../llm/index.js';
import { linesWithin, parseSections } from './sections.js';
import { substitute } from './template.js';

export interface SectionSize {
  /** The header line, e.g. `# Worklog`. */
  header: string;
  tokens: number;
}

export interface NotesSize {
  total: number;
  sections: SectionSize[];
  /** Sections over the per-section cap, largest first. */
  oversized: SectionSize[];
  overTotal: boolean;
}

/** docs/memory.md#session-notes caps, in estimated tokens (chars/4): per section over its trimmed body, total over the file. */
export function analyzeNotesSize(notes: string, caps: MemoryConfig['sessionMemory']): NotesSize {
  const sections = parseSections(notes).sections.map((s) => ({ header: s.headerLine, tokens: estimateTextTokens(s.body.trim()) }));
  const total = estimateTextTokens(notes);
  const oversized = sections.filter((s) => s.tokens > caps.maxSectionTokens).sort((a, b) => b.tokens - a.tokens);
  return { total, sections, oversized, overTotal: total > caps.maxTotalTokens };
}

/**
 * The condensation request appended to the update prompt when a cap is exceeded (docs/memory.md#session-notes):
 * a total over the cap asks to condense the whole file; oversized sections are named, largest first.
 * Current State and Errors & Corrections are the ones to keep accurate. '' when nothing is over.
 */
export function condensationReminder(size: NotesSize, caps: MemoryConfig['sessionMemory']): string {
  const parts: string[] = [];
  if (size.overTotal) {
    parts.push(
      `IMPORTANT: the notes file is about ${size.total} tokens, ${size.total - caps.maxTotalTokens} over the ` +
        `${caps.maxTotalTokens}-token limit. Condense it hard in this update: shorten entries, merge related ones, ` +
        'and summarize older Worklog and Learnings entries. Keep "Current State" and "Errors & Corrections" ' +
        'complete and accurate above everything else.',
    );
  }
  if (size.oversized.length > 0) {
    const title = size.overTotal
      ? 'Sections over their size limit, to condense:'
      : 'These sections are over their size limit and must be condensed (keep "Current State" and "Errors & Corrections" accurate):';
    parts.push([title, ...size.oversized.map((s) => `- "${s.header}" is about ${s.tokens} tokens (limit: ${caps.maxSectionTokens})`)].join('\n'));
  }
  return parts.join('\n\n');
}

/**
 * The notes as the update prompt shows them: a section longer than twice its cap (in characters, at
 * chars/4) shows its first lines up to that length, then a note that the rest stays in the file unseen.
 * Five megabytes of notes would otherwise make a prompt of over a million tokens, which the API refuses,
 * and the notes could never be condensed. Everything shown is the file's exact text, so Edits of it apply.
 */
export function notesForPrompt(notes: string, caps: MemoryConfig['sessionMemory']): { text: string; cut: string[] } {
  const limit = caps.maxSectionTokens * 4 * 2;
  const parsed = parseSections(notes);
  const cut: string[] = [];
  const sections = parsed.sections.map((s) => {
    if (s.body.length <= limit) return s.raw;
    cut.push(s.headerLine);
    const lines = linesWithin(s.body, limit);
    // A first line longer than the limit is shown in part.
    const shown = lines || s.body.slice(0, limit);
    const hidden = estimateTextTokens(s.body.slice(shown.length));
    return (
      `${s.headerLine}\n${shown}${lines ? '' : '\n'}[… cut from this prompt only: about ${hidden} more tokens of this section are in the file and not shown. ` +
      'Condense the section: replace what is shown with a short summary; do not copy this line into the file.]\n\n'
    );
  });
  return { text: parsed.preamble + sections.join(''), cut };
}

/** The full update prompt: the active prompt with its two placeholders filled, then any condensation request. */
export function buildUpdatePrompt(
  promptTemplate: string,
  notes: string,
  notesPath: string,
  caps: MemoryConfig['sessionMemory'],
): string {
  const body = substitute(promptTemplate, { currentNotes: notesForPrompt(notes, caps).text, notesPath });
  const reminder = condensationReminder(analyzeNotesSize(notes, caps), caps);
  return reminder ? `${body}\n\n${reminder}` : body;
}
