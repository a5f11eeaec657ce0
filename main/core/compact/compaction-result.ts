import type { CompactBoundaryRecord, MessageRecord, TranscriptRecord } from '../transcripts/index.js';

/** Why session-memory compaction did not run (docs/architecture.md, `strata compact`), in docs/memory.md#compaction order. */
export const fallbackReasons = ['no-notes', 'template', 'boundary-not-found', 'over-threshold', 'error'] as const;
export type FallbackReason = (typeof fallbackReasons)[number];

/**
 * A compacted conversation (docs/memory.md#compaction): the records to append to the transcript, in order —
 * boundary, summary, the kept records verbatim, then attachments (legacy: restored files). Later API
 * calls use only what follows the boundary.
 */
export interface CompactionResult {
  boundary: CompactBoundaryRecord;
  summary: MessageRecord;
  /** The transcript's own records kept verbatim, in order (session-memory path; empty for legacy). */
  kept: TranscriptRecord[];
  attachments: MessageRecord[];
  /** Context size before (docs/memory.md#token-accounting) and the estimate of what follows the boundary after. */
  tokensBefore: number;
  tokensAfter: number;
}

export function resultRecords(result: CompactionResult): TranscriptRecord[] {
  return [result.boundary, result.summary, ...result.kept, ...result.attachments];
}
