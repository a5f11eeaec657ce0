import type { MemoryConfig } from '../../../common/config.js';
import { estimateMessageTokens } from '../llm/index.js';
import { isCompactBoundary, isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import { toolResultIds, toolUseIds } from '../session-memory/index.js';

type KeepConfig = Pick<MemoryConfig['compaction'], 'keepMinTokens' | 'keepMinTextMessages' | 'keepMaxTokens'>;

/** docs/memory.md#token-accounting estimate of one record; records that are not messages are never sent and cost nothing. */
export function recordTokens(record: TranscriptRecord): number {
  return isMessageRecord(record) ? estimateMessageTokens(record.message) : 0;
}

/** A message with text: an assistant text block, or user text (a non-empty string or a text block). */
export function hasTextBlocks(record: TranscriptRecord): boolean {
  if (!isMessageRecord(record)) return false;
  const content = record.message.content;
  if (typeof content === 'string') return content.length > 0;
  return content.some((b) => b.type === 'text');
}

/** The index just after the last compact boundary: kept messages never reach behind it. */
export function keepFloor(records: readonly TranscriptRecord[]): number {
  for (let i = records.length - 1; i >= 0; i--) if (isCompactBoundary(records[i]!)) return i + 1;
  return 0;
}

/**
 * docs/memory.md#compaction / docs/memory.md#compaction: every record after the last summarized one is kept; the start then moves
 * back while the kept part holds fewer than `keepMinTokens` tokens or fewer than `keepMinTextMessages`
 * messages with text, stopping once it reaches `keepMaxTokens` (a stop, not a cap: nothing after the
 * last summarized record is dropped) and never crossing an earlier compact boundary. Finally the start
 * moves back further so the API invariants hold (`adjustForApiInvariants`).
 * `lastSummarizedIndex` -1 means "no cursor": start from the end.
 */
export function calculateKeepIndex(records: readonly TranscriptRecord[], lastSummarizedIndex: number, config: KeepConfig): number {
  const floor = keepFloor(records);
  let start = lastSummarizedIndex >= 0 ? lastSummarizedIndex + 1 : records.length;
  let tokens = 0;
  let texts = 0;
  for (let i = start; i < records.length; i++) {
    tokens += recordTokens(records[i]!);
    if (hasTextBlocks(records[i]!)) texts++;
  }
  const satisfied = () => tokens >= config.keepMaxTokens || (tokens >= config.keepMinTokens && texts >= config.keepMinTextMessages);
  for (let i = start - 1; i >= floor && !satisfied(); i--) {
    tokens += recordTokens(records[i]!);
    if (hasTextBlocks(records[i]!)) texts++;
    start = i;
  }
  return adjustForApiInvariants(records, start, floor);
}

/**
 * Moves `start` back (never behind `floor`) until no kept tool_result lacks its tool_use and no API
 * response is split: records sharing one assistant `message.id` (thinking + tool_use, parallel tool
 * calls) are kept together. Repeats until stable, since each move may pull in records needing more.
 */
export function adjustForApiInvariants(records: readonly TranscriptRecord[], start: number, floor = 0): number {
  if (start <= floor || start >= records.length) return start;
  for (;;) {
    const before = start;
    const uses = new Set<string>();
    const results = new Set<string>();
    const responseIds = new Set<string>();
    for (let i = start; i < records.length; i++) {
      const r = records[i]!;
      if (!isMessageRecord(r)) continue;
      for (const id of toolUseIds(r)) uses.add(id);
      for (const id of toolResultIds(r)) results.add(id);
      if (r.message.role === 'assistant' && r.message.id) responseIds.add(r.message.id);
    }
    const needed = new Set([...results].filter((id) => !uses.has(id)));
    for (let i = start - 1; i >= floor && needed.size > 0; i--) {
      const r = records[i]!;
      if (!isMessageRecord(r)) continue;
      const ids = toolUseIds(r).filter((id) => needed.has(id));
      if (ids.length === 0) continue;
      start = i;
      for (const id of ids) needed.delete(id);
      if (r.message.id) responseIds.add(r.message.id);
    }
    for (let i = start - 1; i >= floor; i--) {
      const r = records[i]!;
      if (isMessageRecord(r) && r.message.role === 'assistant' && r.message.id && responseIds.has(r.message.id)) start = i;
    }
    if (start === before) return start;
  }
}
