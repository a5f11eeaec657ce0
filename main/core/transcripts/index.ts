export * from './records.js';
export { parseJsonl, serializeRecords, type MalformedLine, type ParsedTranscript } from './jsonl.js';
export { TranscriptStore, type TranscriptStoreOptions } from './transcript-store.js';
export { summarizeTranscript, promptText, type SessionSummary, type CustomTitleRecord } from './session-summary.js';
export { VaultTrash, type TrashEntry } from './trash.js';
export { SessionStateStore, type SessionStateSlot } from './session-state-store.js';
export { importClaudeCode, type ImportCounts, type ImportOptions } from './claude-code-import.js';
export { conversationChain, type ConversationChain } from './conversation-chain.js';
export { appendRecords, readTranscriptFile } from './transcript-file.js';
