import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../ports.js';

/** docs/memory.md#session-notes / docs/memory.md#session-notes: ten `# ` sections, each with one italic description line. */
export const DEFAULT_NOTES_TEMPLATE = `# Session Title
_A short, distinctive title for this session, five to ten words, dense with meaning_

# Current State
_What is being worked on right now: pending tasks and the immediate next steps_

# Task specification
_What the user asked for, the design decisions taken and the context that shaped them_

# Files and Functions
_The important files, what each contains and why it matters here_

# Workflow
_The commands usually run and in which order, and how to read their output_

# Errors & Corrections
_Errors met and how they were fixed, corrections from the user, approaches that failed and must not be retried_

# Codebase and System Documentation
_The important components and how they fit together_

# Learnings
_What worked, what did not, what to avoid; nothing already said in another section_

# Key results
_An exact copy of any specific output the user asked for: an answer, a table, a document_

# Worklog
_A terse step-by-step log of what was tried and done_
`;

/**
 * The default update instructions (docs/memory.md#session-notes gist, our wording). `{{notesPath}}` and
 * `{{currentNotes}}` are filled in once by `substitute`.
 */
export const DEFAULT_UPDATE_PROMPT = `This message is not part of the conversation with the user. It is a housekeeping instruction: keep the session notes file current. Never mention these notes or this note-taking in the notes themselves.

The notes file is {{notesPath}}. It has already been read for you; its current contents are:

<current_notes_content>
{{currentNotes}}
</current_notes_content>

Your only task: update that file with Edit calls (several Edit calls in parallel if needed), then stop. Do not call any other tool and do not edit any other file.

Rules for the notes:
- Keep every line starting with "# " and the italic description line under it exactly as they are; they are the template's instructions. Edit only the content below them, and add no new sections.
- Leave a section alone when the conversation brought nothing substantive for it; never add filler.
- Be detailed and specific: file paths, function names, exact error messages, the commands that were run.
- "Key results" holds the complete output the user asked for, copied exactly.
- Do not repeat what the project's CLAUDE.md instructions already say.
- Keep each section under about 2,000 tokens; when one grows, drop its least important detail first.
- Always bring "Current State" up to date: it is what the work resumes from after the context is compacted.

Remember: headers and description lines stay exactly as they are; only the content under them changes.`;

/** The active template and prompt: the user's files in `<vault>/session-memory/config/`, else the defaults. */
export interface NotesCustomization {
  template: string;
  prompt: string;
  /** Which of the two came from the user's files. */
  custom: { template: boolean; prompt: boolean };
}

export function customizationDir(vaultRoot: string): string {
  return path.join(vaultRoot, 'session-memory', 'config');
}

/** Reads the user's template and prompt; a missing file means the default, any other error is logged. */
export async function loadCustomization(vaultRoot: string, logger?: Logger): Promise<NotesCustomization> {
  const dir = customizationDir(vaultRoot);
  const read = async (name: string): Promise<string | null> => {
    try {
      return await fs.readFile(path.join(dir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        logger?.warn('session notes: cannot read custom file, using the default', { file: name, code: (error as NodeJS.ErrnoException).code });
      }
      return null;
    }
  };
  const [template, prompt] = await Promise.all([read('template.md'), read('prompt.md')]);
  return {
    template: template ?? DEFAULT_NOTES_TEMPLATE,
    prompt: prompt ?? DEFAULT_UPDATE_PROMPT,
    custom: { template: template !== null, prompt: prompt !== null },
  };
}

/**
 * Fills `{{key}}` placeholders in one pass (docs/memory.md#session-notes): only known keys, values inserted literally
 * (a `$` is not a replacement pattern), and inserted text is never scanned again.
 */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (match, key: string) => (Object.hasOwn(values, key) ? values[key]! : match));
}

/**
 * "Empty" notes (docs/memory.md#session-notes): equal to the active template modulo surrounding whitespace. A file emptied
 * to whitespace holds no notes either (docs/memory.md#session-notes: "emptied or still the template").
 */
export function isStillTemplate(notes: string, template: string): boolean {
  return notes.trim() === '' || notes.trim() === template.trim();
}
