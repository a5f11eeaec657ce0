/** Auto memory (docs/memory.md#auto-memory): the store, the prompts, the write sandbox, the extractor and recall. */
export { MemoryStore, type IndexReport, type NewMemory } from './memory-store.js';
export { findGitRoot, memoryDirFor, ensureMemoryDir, sessionStateFile, INDEX_FILE_NAME } from './memory-paths.js';
export { parseMemoryFile, renderMemoryFile, memoryTypes, type MemoryType, type MemoryFlag, type ParsedMemory } from '../../../common/memory-file/index.js';
export { scanMemoryFiles, formatManifest, type MemoryFile } from './memory-files.js';
export { parseIndex, truncateIndex, indexHeadroom, formatIndexLine, type IndexEntry, type IndexHeadroom, type IndexTruncation } from './memory-index.js';
export { memoryPromptSection } from './memory-prompt.js';
export { extractorPrompt } from './extractor-prompt.js';
export { checkMemoryWrite, type SandboxResult } from './write-sandbox.js';
export { memoryWriteGuard, type MemoryWriteGuard, type MemoryWriteRequest, type SecretScan } from './write-guard.js';
export { createExtractorCanUseTool, toLoopCanUseTool, type CanUseTool, type ToolDecision, type LoopToolDecision } from './extractor-permissions.js';
export { FileCursorStore, MemoryCursorStore, type CursorStore, type ExtractionCursor } from './extraction-cursor.js';
export {
  MemoryExtractor,
  type ExtractionOutcome,
  type ExtractorSwitches,
  type ForkRequest,
  type ForkResult,
  type ForkRunner,
  type MemoryExtractorOptions,
  type TurnEndContext,
} from './memory-extractor.js';
export { MemoryRecall, type RecallExplanation, type RecallPick, type RecallRequest, type RecallResult } from './memory-recall.js';
export { MemoryRanker } from './recall-rank.js';
export { attachMemories, renderRecalled, ageLine, type RecalledMemory } from './recall-attach.js';
export { selectOnline, parseSelection, type SideQuery } from './recall-select.js';
export { MemoryUsageStore } from './memory-usage.js';
export { runExtractPass } from './extract-pass.js';
export { indexCapNotice } from './index-cap-notice.js';
export { sandboxMemoryPaths } from './memory-path-tools.js';
export { ReviewInbox } from './review-inbox.js';
export { VaultMemorySource, type MemoryFileSource } from './memory-source.js';
export { explainLines, whyLine } from './recall-explain.js';
