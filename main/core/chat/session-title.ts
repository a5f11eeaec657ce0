import { promises as fs } from 'node:fs';
import { parseSections } from '../session-memory/index.js';

/** More than a title: a notes section written as a paragraph. */
const MAX_TITLE_CHARS = 120;

/**
 * The title the session notes keep for the conversation (docs/memory.md#session-notes "Session Title"): the section's
 * first line that is not the template's italic description. Null while the notes have none.
 */
export function notesTitle(notes: string): string | null {
  const section = parseSections(notes).sections.find((s) => s.title.toLowerCase() === 'session title');
  const line = section?.body
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !/^_.*_$/.test(l));
  if (!line) return null;
  const title = line.replace(/^#+\s*/, '').replace(/\s+/g, ' ');
  return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1)}…` : title;
}

/** The notes title of a session, or null when its notes are missing or hold none. */
export async function readNotesTitle(notesFile: string): Promise<string | null> {
  const text = await fs.readFile(notesFile, 'utf8').catch(() => null);
  return text === null ? null : notesTitle(text);
}
