import type { CompactOutcome } from '../compact/index.js';
import { isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';

/**
 * A compaction's records as the conversation keeps them: the boundary carries what the divider shows
 * (which path ran and why, the tokens after, how many messages were kept word for word, where the full
 * transcript is), then the summary and the kept records.
 */
export function compactionRecords(outcome: CompactOutcome, transcriptPath: string): { divider: TranscriptRecord; records: TranscriptRecord[] } {
  const [boundary, ...rest] = outcome.records;
  const meta = {
    path: outcome.path,
    reason: outcome.reason,
    postTokens: outcome.result.tokensAfter,
    keptMessages: outcome.result.kept.filter(isMessageRecord).length,
    transcriptPath,
  };
  const divider = { ...boundary!, compactMetadata: { ...((boundary as { compactMetadata?: object }).compactMetadata ?? {}), ...meta } } as TranscriptRecord;
  return { divider, records: [divider, ...rest] };
}

/** The one line a compaction shows while it runs, replaced in place by how it ended. */
export function compactionNotice(trigger: 'auto' | 'manual', state: 'running' | 'done'): string {
  if (state === 'running') return trigger === 'auto' ? 'Compacting the conversation to make room…' : 'Compacting the conversation…';
  return trigger === 'auto' ? 'Compacted the conversation to make room.' : 'Compacted the conversation.';
}
