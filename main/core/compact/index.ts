/** Compaction (docs/memory.md#compaction): thresholds and breaker, session-memory compaction, legacy summarizer, orchestrator. */
export { CompactionGuard, type ContextStatus } from './compaction-guard.js';
export { fallbackReasons, resultRecords, type CompactionResult, type FallbackReason } from './compaction-result.js';
export { Compactor, type CompactOutcome, type CompactRequest, type CompactorDeps } from './compactor.js';
export { adjustForApiInvariants, calculateKeepIndex, hasTextBlocks, keepFloor, recordTokens } from './keep-index.js';
export { legacyCompact, type LegacyCompactInput } from './legacy-compact.js';
export { SUMMARIZER_TOOL_DENIAL, legacySummaryPrompt } from './legacy-prompt.js';
export { recentlyReadFiles, restoreRecentFiles, restoredFileText, type ReadText, type RestoredFile } from './restored-files.js';
export { sessionMemoryCompact, type SessionMemoryCompactInput, type SessionMemoryCompactOutcome } from './session-memory-compact.js';
export { TRUNCATION_MARKER, formatCompactSummary, summaryText, truncateNotesForCompact } from './summary-message.js';
export { readTranscriptFile } from './jsonl-reader.js';
