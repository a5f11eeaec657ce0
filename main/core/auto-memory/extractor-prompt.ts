import type { MemoryShape } from '../../../common/memory-file/index.js';

/** Inputs of the background extractor's instruction (docs/memory.md#auto-memory, docs/memory.md#extraction). */
export interface ExtractorPromptInput {
  memoryDir: string;
  /** How many of the most recent messages to analyse. */
  newMessageCount: number;
  /** `formatManifest` of the existing memory files; empty when there are none. */
  manifest: string;
  maxTurns: number;
  /** The frontmatter shape chosen in Settings (default the 2.1.88 shape). */
  shape?: MemoryShape;
}

/**
 * The extractor's instruction, sent as the last user message of the fork. It reads all it needs in one
 * turn and writes in the next, because its turns are few (docs/memory.md#auto-memory: at most 5).
 */
export function extractorPrompt(input: ExtractorPromptInput): string {
  const parts = [
    `You are the memory extractor. Look at the most recent ~${input.newMessageCount} messages above and update the persistent memory in \`${input.memoryDir}\` with what is worth keeping for future conversations.`,
    'Tools: Read, Grep and Glob anywhere in the project; Write, Edit and Delete only inside the memory folder. Everything else is denied.',
    `You have at most ${input.maxTurns} turns. In your first turn issue every Read you need, all at once. In your next turn issue every Write and Edit, all at once. Do not alternate reads and writes.`,
    'Use only what those recent messages say. Do not investigate or verify: no searching the source, no git.',
  ];
  if (input.manifest.trim()) {
    parts.push(`## Existing memory files\n${input.manifest}\n\nUpdate an existing file when the topic is already covered; do not create a duplicate.`);
  }
  parts.push(
    'Save right away what the person explicitly asked to remember; remove what they asked to forget (Delete the file and its MEMORY.md line).',
    `## Kinds of memory
- user: their role, goals, knowledge and preferences.
- feedback: corrections and confirmed approaches about how to work, with the reason.
- project: ongoing work, decisions, deadlines (absolute dates) that the code and git do not show.
- reference: where outside information lives and what it is for.`,
    `## Do not save
What the code or git history shows, debugging recipes, what CLAUDE.md says, passing task state, secrets (a write with a secret is refused).`,
    `## How to save
1. Write the memory to its own file with frontmatter ${
      input.shape === 'metadata'
        ? '`name` (a short kebab-case slug), `description` (one specific line), `metadata:` with `type` under it; link related memories in the body with `[[their-name]]`'
        : '`name`, `description` (one specific line), `type`'
    }; lead with the rule or fact, then \`**Why:**\` and \`**How to apply:**\` for feedback and project memories.
2. Add \`- [Title](file.md) — one-line hook\` to MEMORY.md (under ~150 characters a line; the index is cut at 200 lines).`,
    'If nothing is worth saving, reply "nothing to save" and stop.',
  );
  return parts.join('\n\n');
}
