import type { OtherRecord, TranscriptRecord } from './records.js';
import { isMessageRecord } from './records.js';

/**
 * The context reminder (CLAUDE.md files, MEMORY.md indexes, the date: docs/memory.md#instructions) as a transcript
 * record. It is stored as a `system` record because Claude Code leaves system records out of what it
 * sends: a Strata session resumed in Claude Code then carries Claude Code's own reminder only, not
 * both. Strata sends the newest stored reminder at the head of the first user message, where Claude
 * Code 2.1.88 puts its own (docs/claude-code-parity.md).
 */
export const CONTEXT_REMINDER_SUBTYPE = 'context_reminder';

export interface ContextReminderRecord extends OtherRecord {
  type: 'system';
  subtype: typeof CONTEXT_REMINDER_SUBTYPE;
  content: string;
  isMeta: true;
  uuid: string;
  parentUuid: string | null;
}

/** Strata transcripts written before the system record stored the reminder as a meta user message opening so. */
const LEGACY_OPENING = "<system-reminder>\nUse the following context when it helps with the user's request.";

export function contextReminderRecord(fields: {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  cwd: string;
  timestamp: string;
  text: string;
}): ContextReminderRecord {
  const { text, ...identity } = fields;
  return { type: 'system', subtype: CONTEXT_REMINDER_SUBTYPE, content: text, level: 'info', isMeta: true, ...identity };
}

/** The reminder a record holds (either stored form), or null for any other record. */
export function reminderTextOf(record: TranscriptRecord): string | null {
  if (record.type === 'system' && (record as OtherRecord).subtype === CONTEXT_REMINDER_SUBTYPE) {
    const content = (record as OtherRecord).content;
    return typeof content === 'string' ? content : null;
  }
  if (isMessageRecord(record) && record.isMeta && record.message.role === 'user' && typeof record.message.content === 'string') {
    return record.message.content.startsWith(LEGACY_OPENING) ? record.message.content : null;
  }
  return null;
}

/** The newest reminder among the records, or null. */
export function newestReminder(records: readonly TranscriptRecord[]): string | null {
  const [record] = newestReminderRecord(records);
  return record ? reminderTextOf(record) : null;
}

/** The newest reminder record among the records, as a list of zero or one (to put before other records). */
export function newestReminderRecord(records: readonly TranscriptRecord[]): TranscriptRecord[] {
  for (let i = records.length - 1; i >= 0; i--) if (reminderTextOf(records[i]!) !== null) return [records[i]!];
  return [];
}
