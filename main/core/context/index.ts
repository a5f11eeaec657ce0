export {
  loadInstructions,
  type InstructionFile,
  type InstructionKind,
  type LoadInstructionsOptions,
  type LoadedInstructions,
  type PendingApproval,
} from './claude-md-loader.js';
export { buildReminderBlock, type ReminderFile, type ReminderInput } from './reminder-block.js';
export { cleanInstructionText, findIncludes, stripFrontmatter, stripHtmlComments } from './markdown-text.js';
export { buildSessionContext, type SessionContext, type SessionContextInput } from './session-context.js';
export { InstructionsOnRead, attachedInstructionText } from './instructions-on-read.js';
