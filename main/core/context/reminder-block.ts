import type { InstructionFile, InstructionKind } from './claude-md-loader.js';

/** A file shown in the reminder with its path (a MEMORY.md index or the session notes). */
export interface ReminderFile {
  path: string;
  /** Already cut to its load caps by its owner (MEMORY.md: docs/memory.md#auto-memory, with the cut warning appended). */
  content: string;
}

export interface ReminderInput {
  instructions: readonly InstructionFile[];
  autoMemoryIndex?: ReminderFile | null;
  teamMemoryIndex?: ReminderFile | null;
  /** The session's notes, when a session is resumed (docs/memory.md#injection-order). */
  sessionNotes?: ReminderFile | null;
  /** `YYYY-MM-DD`, or a Date read in the local calendar. */
  today: Date | string;
}

const KIND_LABEL: Record<InstructionKind, string> = {
  user: "user's private global instructions for all projects",
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
};

function isoDate(today: Date | string): string {
  if (typeof today === 'string') return today;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
}

const section = (path: string, label: string, body: string) => `Contents of ${path} (${label}):\n\n${body}`;

/**
 * The `<system-reminder>` block of the first user message (docs/memory.md#instructions), rebuilt at session start and
 * after every compaction: CLAUDE.md files in load order, the auto MEMORY.md index, the team MEMORY.md
 * index, the session notes when resuming, then today's date. The system prompt holds only behaviour.
 */
export function buildReminderBlock(input: ReminderInput): string {
  const memoryParts: string[] = input.instructions
    .filter((f) => f.content.trim() !== '')
    .map((f) => section(f.path, KIND_LABEL[f.kind], f.content));
  if (input.autoMemoryIndex && input.autoMemoryIndex.content.trim() !== '') {
    memoryParts.push(section(input.autoMemoryIndex.path, "user's auto-memory, persists across conversations", input.autoMemoryIndex.content.trim()));
  }
  if (input.teamMemoryIndex && input.teamMemoryIndex.content.trim() !== '') {
    const body = `<team-memory-content source="shared">\n${input.teamMemoryIndex.content.trim()}\n</team-memory-content>`;
    memoryParts.push(section(input.teamMemoryIndex.path, 'shared team memory, synced with teammates', body));
  }

  const parts: string[] = ['<system-reminder>', 'Use the following context when it helps with the user\'s request.'];
  if (memoryParts.length > 0) {
    parts.push(
      '# claudeMd',
      `Instructions from the user and the codebase follow. They override default behaviour: follow them exactly as written.\n\n${memoryParts.join('\n\n')}`,
    );
  }
  if (input.sessionNotes && input.sessionNotes.content.trim() !== '') {
    parts.push('# sessionNotes', section(input.sessionNotes.path, 'notes of this session so far, kept up to date in the background', input.sessionNotes.content.trim()));
  }
  parts.push('# currentDate', `Today's date is ${isoDate(input.today)}.`);
  parts.push('', 'This context may or may not be relevant to the current task; do not respond to it unless it is.', '</system-reminder>');
  return parts.join('\n');
}
