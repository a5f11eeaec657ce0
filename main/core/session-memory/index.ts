/** Session memory (docs/memory.md#session-notes): the per-session notes file and the forked updater that keeps it current. */
export type { CanUseTool, ForkArgs, ForkResult, ForkRunner, ForkUsage, MessageParam, SummarizerFork, ToolDecision } from '../agent/index.js';
export { conversationView, lastAssistantHasToolUse, lastBoundaryIndex, liveContextTokens, liveMessages, toolResultIds, toolUseIds } from './conversation.js';
export { ensureNotesFile, notesPathFor, readNotes, realProjectPath, NOTES_DIR_MODE, NOTES_FILE_MODE } from './notes-file.js';
export { joinSections, linesWithin, parseSections, sectionOf, type NotesSection, type ParsedNotes } from './sections.js';
export { SessionNotesService } from './notes-service.js';
export { SessionNotesUpdater, onlyEditOn, type NotesUpdateContext, type NotesUpdateOutcome, type SessionNotesDeps } from './session-notes-updater.js';
export { SessionMemoryStateStore, initialSessionMemoryState, sessionMemorySlot, type SessionMemoryState } from './state-store.js';
export { restoreStructure } from './structure.js';
export {
  DEFAULT_NOTES_TEMPLATE,
  DEFAULT_UPDATE_PROMPT,
  customizationDir,
  isStillTemplate,
  loadCustomization,
  substitute,
  type NotesCustomization,
} from './template.js';
export { decideUpdate, toolCallsSince, type TriggerDecision, type TriggerReason, type TriggerState } from './trigger.js';
export { analyzeNotesSize, buildUpdatePrompt, condensationReminder, notesForPrompt, type NotesSize, type SectionSize } from './update-prompt.js';
