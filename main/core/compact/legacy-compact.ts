import { randomUUID } from 'node:crypto';
import type { MemoryConfig } from '../../../common/config.js';
import { estimateMessagesTokens } from '../llm/index.js';
import type { MessageParam, SummarizerFork } from '../session-memory/index.js';
import { liveContextTokens, liveMessages } from '../session-memory/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import type { CompactionResult } from './compaction-result.js';
import { SUMMARIZER_TOOL_DENIAL, legacySummaryPrompt } from './legacy-prompt.js';
import { MAX_PTL_RETRIES, tokenGapOf, truncateHeadForRetry } from './ptl-retry.js';
import { restoreRecentFiles, restoredFileText, type ReadText } from './restored-files.js';
import { boundaryRecord, formatCompactSummary, summaryText, userRecord } from './summary-message.js';

export interface LegacyCompactInput {
  records: readonly TranscriptRecord[];
  summarize: SummarizerFork;
  trigger: 'auto' | 'manual';
  /** The user's "Compact now" instructions. */
  instructions?: string;
  transcriptPath?: string;
  config: MemoryConfig['compaction'];
  readText?: ReadText;
  signal?: AbortSignal;
  newUuid?: () => string;
  now?: () => Date;
}

/**
 * Legacy compaction (docs/memory.md#compaction): a forked summarizer with no tools and one turn writes the nine-part
 * summary; the most recently read files are re-attached after it. Nothing is kept verbatim.
 */
export async function legacyCompact(input: LegacyCompactInput): Promise<CompactionResult> {
  const live = liveMessages(input.records);
  if (live.length === 0) throw new Error('nothing to compact: the conversation has no messages');
  const tokensBefore = liveContextTokens(input.records);
  const answer = await summarizeWithRetries(input);
  const formatted = formatCompactSummary(answer.text);
  if (formatted.length === 0) throw new Error('the summarizer returned no text');
  const files = await restoreRecentFiles(input.records, input.config, input.readText);

  const last = input.records[input.records.length - 1];
  const identity = {
    sessionId: live[0]!.sessionId,
    cwd: live[live.length - 1]!.cwd,
    newUuid: input.newUuid ?? randomUUID,
    timestamp: (input.now ?? (() => new Date()))().toISOString(),
  };
  const boundary = boundaryRecord(identity, { trigger: input.trigger, preTokens: tokensBefore, logicalParentUuid: last?.uuid ?? null });
  const summary = userRecord(
    identity,
    boundary.uuid,
    summaryText({
      summary: formatted,
      ...(input.transcriptPath ? { transcriptPath: input.transcriptPath } : {}),
      recentKept: false,
      // A manual compaction may be followed by the user's own question (docs/memory.md#compaction).
      suppressFollowUp: input.trigger === 'auto',
    }),
    { isCompactSummary: true },
  );
  const attachments = [];
  let parent = summary.uuid;
  for (const file of files) {
    const record = userRecord(identity, parent, restoredFileText(file), { isMeta: true });
    attachments.push(record);
    parent = record.uuid;
  }
  const tokensAfter = estimateMessagesTokens([summary, ...attachments].map((r) => r.message));
  return { boundary, summary, kept: [], attachments, tokensBefore, tokensAfter };
}

/**
 * The summarizer call; a refusal as too long (the conversation outgrew the window before compaction ran)
 * is retried up to MAX_PTL_RETRIES times, each time without more of the oldest rounds (docs/memory.md#compaction).
 */
async function summarizeWithRetries(input: LegacyCompactInput) {
  let trim: ((messages: MessageParam[]) => MessageParam[]) | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await input.summarize({
        promptMessages: [{ role: 'user', content: legacySummaryPrompt(input.instructions) }],
        canUseTool: async () => ({ allow: false, message: SUMMARIZER_TOOL_DENIAL }),
        maxTurns: 1,
        ...(trim ? { trimMessages: trim } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
    } catch (error) {
      const llm = (error as { error?: { kind?: string; message?: string } | null }).error;
      if (llm?.kind !== 'context_too_long' || attempt >= MAX_PTL_RETRIES) throw error;
      const gap = tokenGapOf(llm.message ?? '');
      const previous = trim;
      trim = (messages) => truncateHeadForRetry(previous ? previous(messages) : messages, gap);
    }
  }
}
