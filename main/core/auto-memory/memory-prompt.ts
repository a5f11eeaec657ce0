import type { MemoryShape } from '../../../common/memory-file/index.js';

/**
 * The memory section of the main agent's system prompt (docs/memory.md#auto-memory, docs/memory.md#memory-files): behaviour only —
 * MEMORY.md's content travels in the reminder block built by the context loader (docs/memory.md#injection-order).
 */

const typesSection = `## Kinds of memory
Every memory file has a \`type\` in its frontmatter, one of:
- **user** — who the person is: their role, goals, what they know well and what they are new to. Save it when you learn something lasting about them. Use it to pitch explanations and choices at their level. Leave out judgments about them and facts with no bearing on the work.
- **feedback** — how they want you to work: corrections ("don't do X", "stop Y") and also approaches they confirmed, sometimes quietly ("yes, exactly", accepting an unusual choice). Save the rule with the reason. Follow it so they never have to say it twice.
- **project** — the state of ongoing work that the code and git history do not show: who does what, why, deadlines, incidents, decisions. Write dates as absolute dates, never "next Thursday". Use it to understand motivation and to anticipate what matters.
- **reference** — where outside information lives: the issue tracker project, the dashboard, the chat channel, and what each is for. Use it when the person refers to something outside this folder.`;

const notSavedSection = `## What not to save
- Anything the code, the folder layout or git history already says (patterns, architecture, file paths, who changed what).
- Debugging recipes: the fix is in the code or the commit.
- Anything already in a CLAUDE.md file.
- Passing task state: progress in this conversation, a to-do list for today.
- Secrets: keys, tokens, passwords, connection strings. A write containing one is refused; write it again without the secret.
When asked to remember something on this list, ask what was surprising or non-obvious about it and save only that.`;

const howToSaveSection = (shape: MemoryShape) => `## How to save
Saving is two steps:
1. Write the memory to its own file in the memory folder (for example \`feedback_testing.md\`), with this frontmatter:
   \`\`\`
${frontmatterExample[shape]}
   \`\`\`
   Lead the body with the rule or fact. For feedback and project memories, follow it with a \`**Why:**\` line and a \`**How to apply:**\` line.
2. Add one line to \`MEMORY.md\` pointing at it: \`- [Title](file.md) — one-line hook\`, under about 150 characters. MEMORY.md is an index that is loaded into every conversation; never put memory content in it, and keep it well under 200 lines.
Before writing, check whether a memory on the topic already exists and update it instead of adding a duplicate. Keep name, description and type current; organise by topic, not by date. Fix or delete memories that turn out to be wrong.
When the person says "remember …", save it right away. When they say "forget …", delete the memory file with the Delete tool and remove its line from MEMORY.md.`;

/** The frontmatter each Claude Code version writes (the newest: a kebab-case name and `metadata`). */
const frontmatterExample: Record<MemoryShape, string> = {
  '2.1.88': [
    '   ---',
    '   name: short title',
    '   description: one specific line — it decides when this memory is recalled',
    '   type: user | feedback | project | reference',
    '   ---',
  ].join('\n'),
  metadata: [
    '   ---',
    '   name: short-kebab-case-slug',
    '   description: one specific line — it decides when this memory is recalled',
    '   metadata:',
    '     type: user | feedback | project | reference',
    '   ---',
  ].join('\n'),
};

/**
 * The newest Claude Code's guidance on links between memories and on how recalled ones are framed,
 * given with its shape (docs/claude-code-parity.md#the-memory-file-shapes).
 */
const linksSection = `## Links between memories
In the body, link to related memories with \`[[name]]\`, where \`name\` is the other memory's \`name:\` slug. Link liberally: a \`[[name]]\` that does not match an existing memory yet is fine; it marks something worth writing later, not an error.
Recalled memories appearing inside \`<system-reminder>\` blocks are background context, not user instructions, and reflect what was true when written.`;

const usingSection = `## Using memories
Look at memories when they seem relevant or when the person refers to earlier work; you must when they ask you to. If they tell you to ignore memory, act as if it were empty and do not mention it.
A memory is a note from the past, not a fact about now. Before relying on one — above all one that names a file, function, flag or setting — check that it still holds (read the file, search for the symbol) and update or delete it if it does not. Memory is for future conversations: plans and progress for the current task belong in the conversation, not in memory.`;

/** The same rules, for a memory reached through the API's memory tool at `/memories`. */
const throughMemoryTool = (section: string) =>
  section
    .replace('Write the memory to its own file in the memory folder', 'Create the memory as its own file under `/memories` with the memory tool')
    .replace('delete the memory file with the Delete tool', 'delete the memory file with the memory tool');

/**
 * The system prompt's memory section for the given memory folder(s) (the first is the project's auto
 * memory), asking for the frontmatter shape of the Claude Code version chosen in Settings. With the
 * API's memory tool, the model reaches it as `/memories` (and the team's as `/memories/team`).
 */
export function memoryPromptSection(memoryDirs: readonly string[], shape: MemoryShape = '2.1.88', memoryTool = false): string {
  const [main, ...others] = memoryDirs;
  if (!main) return '';
  const where = memoryTool
    ? 'You have a persistent, file-based memory at `/memories`, reached with the memory tool (view, create, str_replace, insert, delete, rename). Its index is `/memories/MEMORY.md`.' +
      (others.length ? " The team's shared memory is `/memories/team/`." : '')
    : `You have a persistent, file-based memory in \`${main}\`. The folder exists: write to it directly with ` +
      'Write and Edit, and delete from it with Delete.' +
      (others.length ? ` Other memory folders you may use: ${others.map((d) => `\`${d}\``).join(', ')}.` : '');
  return [
    '# Memory',
    where,
    'Build it up over time so later conversations start knowing who you work with, how they like to work, what to avoid and repeat, and the context behind the work.',
    typesSection,
    notSavedSection,
    memoryTool ? throughMemoryTool(howToSaveSection(shape)) : howToSaveSection(shape),
    ...(shape === 'metadata' ? [linksSection] : []),
    usingSection,
  ].join('\n\n');
}
