import { randomUUID } from 'node:crypto';
import type { MemoryConfig } from '../../../common/config.js';
import { estimateMessagesTokens } from '../llm/index.js';
import { conversationView, isStillTemplate, liveContextTokens } from '../session-memory/index.js';
import { isCompactBoundary, isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import type { CompactionResult, FallbackReason } from './compaction-result.js';
import { calculateKeepIndex, keepFloor } from './keep-index.js';
import { boundaryRecord, formatCompactSummary, summaryText, truncateNotesForCompact, userRecord } from './summary-message.js';

export interface SessionMemoryCompactInput {
  /** The conversation's records in order (a transcript's, or the loop's list); boundaries included. */
  records: readonly TranscriptRecord[];
  /** The notes text, or null when the file does not exist. */
  notes: string | null;
  /** The active template (custom or default) for the "still the template" test. */
  template: string;
  lastSummarizedMessageId: string | null;
  /** Falls back for size only when given (docs/memory.md#compaction; the CLI's `--threshold`). */
  threshold?: number;
  notesPath: string;
  transcriptPath?: string;
  trigger: 'auto' | 'manual';
  config: MemoryConfig['compaction'];
  newUuid?: () => string;
  now?: () => Date;
}

export type SessionMemoryCompactOutcome =
  | { ok: true; result: CompactionResult }
  | { ok: false; reason: FallbackReason; detail?: string; tokensBefore: number };

/**
 * Session-memory compaction, no model call (docs/memory.md#compaction): the notes replace everything up to
 * `lastSummarizedMessageId`, the records after it (extended backwards by the keep rule) stay verbatim.
 * Pure over its input: reads and writes nothing.
 */
export function sessionMemoryCompact(input: SessionMemoryCompactInput): SessionMemoryCompactOutcome {
  let tokensBefore = 0;
  try {
    tokensBefore = liveContextTokens(input.records);
    if (input.notes === null) return { ok: false, reason: 'no-notes', tokensBefore };
    if (isStillTemplate(input.notes, input.template)) return { ok: false, reason: 'template', tokensBefore };

    const records = conversationView(input.records);
    const floor = keepFloor(records);
    let lastSummarizedIndex = -1;
    if (input.lastSummarizedMessageId !== null) {
      // Only the live part counts: a cursor on a record compacted away is "not found" (docs/memory.md#compaction).
      lastSummarizedIndex = records.findIndex((r, i) => i >= floor && r.uuid === input.lastSummarizedMessageId);
      if (lastSummarizedIndex === -1) return { ok: false, reason: 'boundary-not-found', tokensBefore };
    }
    const start = calculateKeepIndex(records, lastSummarizedIndex, input.config);
    const kept = records.slice(start).filter((r) => !isCompactBoundary(r));

    const last = records[records.length - 1];
    const firstMessage = records.find(isMessageRecord);
    const identity = {
      sessionId: firstMessage?.sessionId ?? '',
      cwd: (last as { cwd?: string } | undefined)?.cwd ?? firstMessage?.cwd ?? '',
      newUuid: input.newUuid ?? randomUUID,
      timestamp: (input.now ?? (() => new Date()))().toISOString(),
    };
    const { text: notes, truncated } = truncateNotesForCompact(input.notes, input.config.summarySectionChars);
    const boundaryUuid = identity.newUuid();
    const summary = userRecord(
      identity,
      boundaryUuid,
      summaryText({
        summary: formatCompactSummary(notes),
        notesPath: input.notesPath,
        notesTruncated: truncated,
        ...(input.transcriptPath ? { transcriptPath: input.transcriptPath } : {}),
        recentKept: kept.length > 0,
        suppressFollowUp: true,
      }),
      { isCompactSummary: true },
    );
    const boundary = boundaryRecord(
      { ...identity, newUuid: () => boundaryUuid },
      {
        trigger: input.trigger,
        preTokens: tokensBefore,
        logicalParentUuid: last?.uuid ?? null,
        ...(kept.length > 0 ? { preservedSegment: { headUuid: kept[0]!.uuid!, anchorUuid: summary.uuid, tailUuid: kept[kept.length - 1]!.uuid! } } : {}),
      },
    );
    const tokensAfter = estimateMessagesTokens([summary, ...kept.filter(isMessageRecord)].map((r) => r.message));
    if (input.threshold !== undefined && tokensAfter >= input.threshold) return { ok: false, reason: 'over-threshold', tokensBefore };
    return { ok: true, result: { boundary, summary, kept, attachments: [], tokensBefore, tokensAfter } };
  } catch (error) {
    return { ok: false, reason: 'error', detail: (error as Error).message, tokensBefore };
  }
}
