import type Anthropic from '@anthropic-ai/sdk';
import type { MemoryShape } from '../../../common/memory-file/index.js';
import { memoryPromptSection } from '../auto-memory/index.js';

const base = `You are Strata, an assistant that works on the user's folder with them. Many of the people you help never open a terminal: explain plainly, avoid jargon, and say what you changed.

# Working on the folder
- The opened folder is \`{project}\`. Use Read, Glob and Grep to look around before answering questions about it.
- Read a file before you Write or Edit it. Prefer Edit for changes to existing files.
- Writes outside the memory folders ask the user first; if they decline, do not retry — ask what they want instead.
- Keep answers short and concrete. Use markdown; put file contents and commands in code blocks.`;

/**
 * What the agent is told instead of how to write memory while the user paused it (docs/memory.md#pause-and-incognito):
 * memory still informs the answers, nothing new is saved, and the agent says so rather than trying.
 */
export const MEMORY_PAUSED_SECTION = `# Memory
Memory is paused in this project: the user asked that nothing new be saved. What you are shown from memory may still help you answer, but do not create, edit or delete files in the memory folders. If the user asks you to remember or forget something, say plainly that memory is paused in this project, so it is not saved, and that they can resume memory with the Memory paused button at the top of the conversation.`;

/** What the agent is told when it writes memory while the user paused it (the chat shows such a call as not saved). */
export const MEMORY_PAUSED = 'Refused: the user paused memory for this project, so nothing is saved. Do not retry; if it matters, tell the user what you would have remembered.';

/**
 * The main agent's system prompt: one text block, stable for the whole session so the prompt cache
 * serves every turn and every fork (the memory section names folders, never their content). While
 * memory is paused it says so instead of how to write memory; pausing or resuming changes it from the
 * next turn.
 */
export function buildSystemPrompt(input: { project: string; memoryDirs: readonly string[]; memoryShape?: MemoryShape; memoryTool?: boolean; memoryPaused?: boolean }): Anthropic.TextBlockParam[] {
  const memory = input.memoryPaused && input.memoryDirs.length > 0 ? MEMORY_PAUSED_SECTION : memoryPromptSection(input.memoryDirs, input.memoryShape, input.memoryTool ?? false);
  const sections = [base.replace('{project}', input.project), memory].filter((s) => s !== '');
  return [{ type: 'text', text: sections.join('\n\n') }];
}
