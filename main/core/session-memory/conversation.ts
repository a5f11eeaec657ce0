import { contextTokens } from '../llm/index.js';
import {
  isCompactBoundary,
  type CompactBoundaryRecord,
  isMessageRecord,
  type MessageRecord,
  type TranscriptRecord,
} from '../transcripts/index.js';

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

/**
 * What the model currently sees, as records: the last compact boundary (when there is one) followed by
 * the main-thread message records after it. A boundary written by Claude Code's session-memory
 * compaction does not repeat the kept records after it but names them (`preservedSegment`, head to
 * tail, placed after the summary `anchorUuid`); those are spliced back in from before the boundary.
 */
export function conversationView(records: readonly TranscriptRecord[]): TranscriptRecord[] {
  const at = lastBoundaryIndex(records);
  const isMain = (r: TranscriptRecord): r is MessageRecord => isMessageRecord(r) && r.isSidechain !== true;
  const after: TranscriptRecord[] = records.slice(at + 1).filter(isMain);
  if (at === -1) return after;
  const boundary = records[at]!;
  const segment = preservedSegment(records, at, after);
  if (segment.length > 0) {
    const anchor = (boundary as CompactBoundaryRecord).compactMetadata.preservedSegment as { anchorUuid?: string };
    const anchorAt = after.findIndex((r) => r.uuid === anchor.anchorUuid);
    after.splice(anchorAt + 1, 0, ...segment);
  }
  return [boundary, ...after];
}

function preservedSegment(records: readonly TranscriptRecord[], boundaryAt: number, after: readonly TranscriptRecord[]): MessageRecord[] {
  const meta = (records[boundaryAt] as CompactBoundaryRecord).compactMetadata;
  const seg = meta?.preservedSegment as { headUuid?: unknown; tailUuid?: unknown } | undefined;
  if (!seg || typeof seg.headUuid !== 'string' || typeof seg.tailUuid !== 'string') return [];
  // Our own compactions append the kept records after the boundary: nothing to splice then.
  if (after.some((r) => r.uuid === seg.headUuid)) return [];
  const head = records.findIndex((r, i) => i < boundaryAt && r.uuid === seg.headUuid);
  const tail = records.findIndex((r, i) => i < boundaryAt && r.uuid === seg.tailUuid);
  if (head === -1 || tail < head) return [];
  return records.slice(head, tail + 1).filter((r): r is MessageRecord => isMessageRecord(r) && r.isSidechain !== true);
}

/** The message records the model currently sees (`conversationView` without the boundary). */
export function liveMessages(records: readonly TranscriptRecord[]): MessageRecord[] {
  return conversationView(records).filter(isMessageRecord);
}

/**
 * docs/memory.md#token-accounting's context size of what the model currently sees. The responses a session-memory compaction
 * kept verbatim (its `preservedSegment`) still carry the usage of the whole pre-compaction context, so
 * until the first response after the compaction their usage is not trusted and the kept part is
 * estimated. Without a compaction this is `contextTokens` of the live messages.
 */
export function liveContextTokens(records: readonly TranscriptRecord[]): number {
  const view = conversationView(records);
  const messages = view.filter(isMessageRecord);
  if (messages.length === 0) return 0;
  const boundary = view[0];
  const seg = boundary && isCompactBoundary(boundary) ? (boundary.compactMetadata?.preservedSegment as { tailUuid?: unknown } | undefined) : undefined;
  const tail = typeof seg?.tailUuid === 'string' ? messages.findIndex((r) => r.uuid === seg.tailUuid) : -1;
  if (tail === -1) return contextTokens(messages);
  return contextTokens(
    messages.map((r, i) => {
      if (i > tail || r.message.usage === undefined) return r;
      const { usage: _stale, ...message } = r.message;
      return { ...r, message };
    }),
  );
}
