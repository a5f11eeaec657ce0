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
 * The main agent's system prompt: one text block, stable for the whole session so the prompt cache
 * serves every turn and every fork (the memory section names folders, never their content).
 */
export function buildSystemPrompt(input: { project: string; memoryDirs: readonly string[]; memoryShape?: MemoryShape; memoryTool?: boolean }): Anthropic.TextBlockParam[] {
  const sections = [base.replace('{project}', input.project), memoryPromptSection(input.memoryDirs, input.memoryShape, input.memoryTool ?? false)].filter((s) => s !== '');
  return [{ type: 'text', text: sections.join('\n\n') }];
}
