import { linesWithin, parseSections, sectionOf } from '../session-memory/index.js';
import type { CompactBoundaryRecord, MessageRecord } from '../transcripts/index.js';

export const TRUNCATION_MARKER = '[... section truncated for length ...]';

/**
 * docs/memory.md#compaction / docs/memory.md#compaction: each `# ` section's body is cut to at most `maxChars` characters on whole
 * lines, followed by a marker line. Returns the text and whether anything was cut.
 */
export function truncateNotesForCompact(notes: string, maxChars: number): { text: string; truncated: boolean } {
  const parsed = parseSections(notes);
  let truncated = false;
  const sections = parsed.sections.map((s) => {
    if (s.body.length <= maxChars) return s;
    truncated = true;
    return sectionOf(`${s.headerLine}\n${linesWithin(s.body, maxChars)}${TRUNCATION_MARKER}\n\n`);
  });
  return { text: parsed.preamble + sections.map((s) => s.raw).join(''), truncated };
}

/** docs/memory.md#compaction `formatCompactSummary`: drops an analysis scratchpad, unwraps `<summary>`, tidies blank lines. */
export function formatCompactSummary(text: string): string {
  let out = text.replace(/<analysis>[\s\S]*?<\/analysis>/, '');
  out = out.replace(/<summary>([\s\S]*?)<\/summary>/, (_m, inner: string) => `Summary:\n${inner.trim()}`);
  return out.replace(/\n{3,}/g, '\n\n').trim();
}

export interface SummaryTextOptions {
  /** The formatted summary or notes. */
  summary: string;
  /** Where the full notes are (session-memory path). */
  notesPath?: string;
  notesTruncated?: boolean;
  transcriptPath?: string;
  /** Session-memory path: the recent messages follow verbatim. */
  recentKept: boolean;
  /** Continue without questions or recap (auto compaction; always for the session-memory path). */
  suppressFollowUp: boolean;
}

/** The summary message's text (docs/memory.md#compaction gist, our wording). */
export function summaryText(o: SummaryTextOptions): string {
  const parts = [
    'This session continues an earlier conversation that ran out of context. A summary of the earlier part follows.',
    o.summary,
  ];
  if (o.notesPath) {
    parts.push(
      o.notesTruncated
        ? `Some sections above were cut for length; the complete session notes are in ${o.notesPath}.`
        : `The session notes are kept in ${o.notesPath}.`,
    );
  }
  if (o.transcriptPath) parts.push(`For exact details, the full transcript of the earlier conversation is in ${o.transcriptPath}.`);
  if (o.recentKept) parts.push('The most recent messages follow verbatim.');
  if (o.suppressFollowUp) {
    parts.push('Continue the work from where it left off, without asking the user further questions and without acknowledging or recapping this summary.');
  }
  return parts.join('\n\n');
}

export interface RecordIdentity {
  sessionId: string;
  cwd: string;
  newUuid: () => string;
  /** ISO timestamp. */
  timestamp: string;
}

export function boundaryRecord(
  id: RecordIdentity,
  meta: { trigger: 'auto' | 'manual'; preTokens: number; logicalParentUuid: string | null; preservedSegment?: { headUuid: string; anchorUuid: string; tailUuid: string } },
): CompactBoundaryRecord {
  return {
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    level: 'info',
    isMeta: false,
    uuid: id.newUuid(),
    parentUuid: null,
    logicalParentUuid: meta.logicalParentUuid,
    sessionId: id.sessionId,
    timestamp: id.timestamp,
    cwd: id.cwd,
    compactMetadata: {
      trigger: meta.trigger,
      preTokens: meta.preTokens,
      ...(meta.preservedSegment ? { preservedSegment: meta.preservedSegment } : {}),
    },
  };
}

/**
 * A user message record following `parentUuid`; `flags` mark it as the summary or a meta attachment.
 * The summary is flagged as Claude Code flags its own (`isCompactSummary` and
 * `isVisibleInTranscriptOnly`), so either program resumes it the same way: both send it to the model.
 */
export function userRecord(
  id: RecordIdentity,
  parentUuid: string,
  text: string,
  flags: { isCompactSummary?: true; isMeta?: true },
): MessageRecord {
  return {
    type: 'user',
    uuid: id.newUuid(),
    parentUuid,
    sessionId: id.sessionId,
    timestamp: id.timestamp,
    cwd: id.cwd,
    message: { role: 'user', content: [{ type: 'text', text }] },
    ...flags,
    ...(flags.isCompactSummary ? { isVisibleInTranscriptOnly: true } : {}),
  };
}
