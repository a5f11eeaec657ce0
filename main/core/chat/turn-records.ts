import { isMessageRecord, type MessageRecord, type TranscriptRecord } from '../transcripts/index.js';

/** What a turn's records are, for the chat's bookkeeping: questions, tool results, the tools used. */

/** A question the user typed (not a reminder, a summary or tool results). */
export function isPromptRecord(r: TranscriptRecord): r is MessageRecord {
  if (!isMessageRecord(r) || r.message.role !== 'user' || r.isMeta || r.isCompactSummary) return false;
  return typeof r.message.content === 'string' || !r.message.content.some((b) => b.type === 'tool_result');
}

/** A user record carrying tool results: the step after which the memory cards of its writes are due. */
export function hasToolResults(record: TranscriptRecord): boolean {
  if (!isMessageRecord(record) || record.message.role !== 'user' || typeof record.message.content === 'string') return false;
  return record.message.content.some((b) => b.type === 'tool_result');
}

/** The tools the newest assistant message used (the recall selector skips their reference docs). */
export function recentToolNames(records: readonly TranscriptRecord[]): string[] {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (!isMessageRecord(r) || r.message.role !== 'assistant' || typeof r.message.content === 'string') continue;
    return [...new Set(r.message.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])))];
  }
  return [];
}
