import {
  isCompactBoundary,
  isMessageRecord,
  type MessageRecord,
  type TranscriptRecord,
} from '../transcripts/records.js';

/** Helpers over a conversation's records, shared by the trigger, the updater and compaction. */

export function toolUseIds(record: MessageRecord): string[] {
  const content = record.message.content;
  if (record.message.role !== 'assistant' || typeof content === 'string') return [];
  return content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
}

export function toolResultIds(record: MessageRecord): string[] {
  const content = record.message.content;
  if (record.message.role !== 'user' || typeof content === 'string') return [];
  return content.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id);
}

/** The newest assistant record, or undefined. */
export function lastAssistant(records: readonly TranscriptRecord[]): MessageRecord | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (isMessageRecord(r) && r.message.role === 'assistant') return r;
  }
  return undefined;
}

/** Whether the newest assistant turn asked for a tool (so a tool_result is still to come or just came). */
export function lastAssistantHasToolUse(records: readonly TranscriptRecord[]): boolean {
  const last = lastAssistant(records);
  return last !== undefined && toolUseIds(last).length > 0;
}

/** Index of the last compact boundary, or -1. */
export function lastBoundaryIndex(records: readonly TranscriptRecord[]): number {
  for (let i = records.length - 1; i >= 0; i--) if (isCompactBoundary(records[i]!)) return i;
  return -1;
}

/** The message records the model currently sees: those after the last compact boundary. */
export function liveMessages(records: readonly TranscriptRecord[]): MessageRecord[] {
  return records.slice(lastBoundaryIndex(records) + 1).filter(isMessageRecord);
}
