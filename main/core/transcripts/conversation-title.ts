import { isCompactBoundary, isMessageRecord, type MessageRecord, type TranscriptRecord } from './records.js';

const MAX_TITLE_CHARS = 120;

/** A title on one line, cut to a length a list row can show. */
export function oneLineTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TITLE_CHARS ? `${flat.slice(0, MAX_TITLE_CHARS - 1)}…` : flat;
}

/** The text the user typed in a record, or null for meta records, tool results and injected reminders. */
export function promptText(record: MessageRecord): string | null {
  if (record.type !== 'user' || record.isMeta || record.isCompactSummary) return null;
  const content = record.message.content;
  const texts = typeof content === 'string' ? [content] : content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
  for (const text of texts) {
    const trimmed = text.trim();
    if (trimmed === '' || /^<(system-reminder|command-|local-command-)/.test(trimmed)) continue;
    return trimmed;
  }
  return null;
}

/**
 * The title session notes give themselves (docs/memory.md#session-notes "Session Title"): the first line
 * of content under `# Session Title`, the template's italic instruction line (`_…_`) skipped, a list
 * marker, heading marks or bold around it dropped; null while the section is still empty.
 */
export function notesSessionTitle(text: string): string | null {
  const m = /^# Session Title[ \t]*\r?\n([\s\S]*?)(?=^# |(?![\s\S]))/m.exec(text);
  if (!m) return null;
  for (const raw of m[1]!.split('\n')) {
    const line = raw.trim();
    if (line === '' || /^_[^_][\s\S]*_$/.test(line)) continue;
    return oneLineTitle(line.replace(/^#+\s*/, '').replace(/^[-*+]\s+/, '').replace(/^\*\*(.*)\*\*$/, '$1'));
  }
  return null;
}

/**
 * The question the conversation starts with as it stands: the first typed prompt on the path from the
 * newest message back to the start — through each compaction (a boundary's `logicalParentUuid`) and
 * along the branch now current, so an edited and resent first question is the one named. Records kept
 * word for word by a compaction share their uuids; the newest copy stands for them. A parent missing
 * from `records` (a window of a long file) is bridged to the record before it in file order.
 */
export function currentFirstQuestion(records: readonly TranscriptRecord[]): string | null {
  const linked = records.filter((r) => typeof r.uuid === 'string' && r.uuid !== '' && !r.isSidechain);
  const at = new Map(linked.map((r, i) => [r.uuid as string, i] as const));
  let i = linked.findLastIndex(isMessageRecord);
  let first: string | null = null;
  const visited = new Set<number>();
  while (i >= 0 && !visited.has(i)) {
    visited.add(i);
    const r = linked[i]!;
    const typed = isMessageRecord(r) ? promptText(r) : null;
    if (typed) first = typed;
    const parent = isCompactBoundary(r) ? r.logicalParentUuid : r.parentUuid;
    if (typeof parent !== 'string') break;
    i = at.get(parent) ?? i - 1;
  }
  return first === null ? null : oneLineTitle(first);
}

/** What a conversation may be named by, as found in its transcript and its notes. */
export interface TitleSources {
  /** The user's rename (a `custom-title` record). */
  custom: string | null;
  /** The session notes' text, when they exist. */
  notes: string | null;
  /** A `summary` record's title (Claude Code writes them). */
  summary: string | null;
  firstQuestion: string | null;
}

/**
 * One title for a conversation wherever it is named — the sidebar, the header, search hits, a memory's
 * "Written in conversation", the memory table's Origin: the user's rename, else the notes' Session
 * Title, else a summary record, else its first question as it stands now. Null when it has none yet.
 */
export function conversationTitle(s: TitleSources): string | null {
  return s.custom ?? (s.notes === null ? null : notesSessionTitle(s.notes)) ?? s.summary ?? s.firstQuestion;
}
