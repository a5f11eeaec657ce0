import { isCompactBoundary, isMessageRecord, type MessageRecord, type TranscriptRecord } from './records.js';

/** The conversation to resume: the main thread ending at the newest message, in order. */
export interface ConversationChain {
  /** Records on the chain (messages, compact boundaries, other linked records), oldest first. */
  records: TranscriptRecord[];
  messages: MessageRecord[];
  /** Parents that were not in the file (a skipped malformed line); bridged by file order. */
  brokenLinks: number;
}

interface Linked {
  uuid: string;
  parentUuid?: string | null;
  isSidechain?: boolean;
}

const linked = (r: TranscriptRecord): r is TranscriptRecord & Linked => typeof r.uuid === 'string' && r.uuid !== '';

/**
 * Follows `parentUuid` links back from the newest main-thread message, as Claude Code does on resume,
 * so branches left by an edit or a retry and sidechain (forked-agent) records drop out. A compact
 * boundary has no parent, so the chain starts there. A missing parent is bridged to the linked record
 * just before it in the file rather than cutting the conversation short.
 */
export function conversationChain(records: readonly TranscriptRecord[]): ConversationChain {
  const main = records.filter(linked).filter((r) => !r.isSidechain);
  const byUuid = new Map(main.map((r, i) => [r.uuid, i] as const));
  const relinked = preservedHeads(main);
  let index = -1;
  for (let i = main.length - 1; i >= 0; i--) {
    if (isMessageRecord(main[i]!)) {
      index = i;
      break;
    }
  }
  const chain: TranscriptRecord[] = [];
  const visited = new Set<number>();
  let brokenLinks = 0;
  while (index >= 0 && !visited.has(index)) {
    visited.add(index);
    const record = main[index]!;
    chain.push(record);
    const parent = relinked.get(record.uuid) ?? record.parentUuid;
    if (parent === null || parent === undefined) break;
    const next = byUuid.get(parent);
    if (next === undefined) {
      brokenLinks++;
      index -= 1;
    } else {
      index = next;
    }
  }
  chain.reverse();
  return { records: chain, messages: chain.filter(isMessageRecord), brokenLinks };
}

/**
 * Session-memory compaction keeps the newest records verbatim after its summary (`preservedSegment`);
 * the first of them still names its pre-compaction parent, so, as Claude Code does on resume, it is
 * read as following the summary (`anchorUuid`). The newest boundary wins.
 */
function preservedHeads(records: readonly TranscriptRecord[]): Map<string, string> {
  const heads = new Map<string, string>();
  for (const r of records) {
    if (!isCompactBoundary(r)) continue;
    const segment = (r.compactMetadata as { preservedSegment?: unknown } | undefined)?.preservedSegment as { headUuid?: unknown; anchorUuid?: unknown } | undefined;
    if (typeof segment?.headUuid === 'string' && typeof segment.anchorUuid === 'string') heads.set(segment.headUuid, segment.anchorUuid);
  }
  return heads;
}
