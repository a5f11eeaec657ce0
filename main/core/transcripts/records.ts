import type Anthropic from '@anthropic-ai/sdk';

/**
 * Transcript records in Claude Code's JSONL shape (one JSON object a line), so real Claude Code
 * transcripts can be read and ours can be read by it. Unknown record types are kept as they are.
 */

export type ContentBlock = Anthropic.ContentBlockParam;
export type Usage = Anthropic.Usage;

export interface ApiMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
  /** The API response id (`msg_…`); several records may share one (one response, several blocks). */
  id?: string;
  model?: string;
  usage?: Usage;
  stop_reason?: string | null;
  /** What the API's context editing cleared from the request that produced this response. */
  context_management?: { cleared_input_tokens: number; cleared_tool_uses: number };
}

interface RecordBase {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  cwd: string;
  isSidechain?: boolean;
  version?: string;
}

export interface MessageRecord extends RecordBase {
  type: 'user' | 'assistant';
  message: ApiMessage;
  /** The summary message that replaces compacted history. */
  isCompactSummary?: boolean;
  isVisibleInTranscriptOnly?: boolean;
  /** A record the user never typed (reminders, attachments). */
  isMeta?: boolean;
}

export interface CompactBoundaryRecord extends RecordBase {
  type: 'system';
  subtype: 'compact_boundary';
  content: string;
  level?: string;
  isMeta?: boolean;
  logicalParentUuid?: string | null;
  compactMetadata: { trigger: 'auto' | 'manual'; preTokens: number; [key: string]: unknown };
}

/** Records we do not interpret (summaries, file snapshots, other system records) pass through. */
export interface OtherRecord {
  type: string;
  uuid?: string;
  [key: string]: unknown;
}

export type TranscriptRecord = MessageRecord | CompactBoundaryRecord | OtherRecord;

export const isMessageRecord = (r: TranscriptRecord): r is MessageRecord =>
  (r.type === 'user' || r.type === 'assistant') && typeof (r as MessageRecord).message === 'object';

export const isCompactBoundary = (r: TranscriptRecord): r is CompactBoundaryRecord =>
  r.type === 'system' && (r as CompactBoundaryRecord).subtype === 'compact_boundary';

/**
 * Whether the model sees a message record. Claude Code marks its compact summary
 * `isVisibleInTranscriptOnly` too, yet sends it on resume (it is what replaces the compacted turns);
 * other transcript-only rows stay out.
 */
export const reachesModel = (r: MessageRecord): boolean => r.isVisibleInTranscriptOnly !== true || r.isCompactSummary === true;
