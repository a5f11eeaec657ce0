/**
 * The summarizer's prompt for legacy compaction (docs/memory.md#compaction gist, our wording): a private
 * analysis, then a nine-part summary. The fork has the tools in its prefix (cache key) but may use
 * none and has one turn, so the prompt says so before and after.
 */
const TEXT_ONLY = `Answer with plain text only. Do not call any tool: every tool call will be refused, and you have exactly one turn, so a tool call would waste it and leave no summary.`;

const BASE = `Your task is to write a detailed summary of the conversation so far. It will replace the conversation, so whoever continues the work must be able to do so from the summary alone, without losing context: the user's requests, the technical details, the code, and the decisions taken.

First think inside <analysis> tags. Go through the conversation in order and note, for each part: what the user asked for and meant, how it was approached, the decisions made, the key concepts, file names, full code snippets, function signatures and edits, the errors met and how they were fixed, and any feedback from the user, above all where they asked for something to be done differently.

Then write the summary inside <summary> tags, with these nine parts:
1. Primary request and intent: everything the user explicitly asked for, in detail.
2. Key technical concepts: the technologies, frameworks and ideas discussed.
3. Files and code sections: every file looked at, changed or created, with the important snippets and why each matters.
4. Errors and fixes: each error met and how it was fixed, including what the user said about it.
5. Problem solving: the problems solved and any troubleshooting still going on.
6. All user messages: every message from the user that is not a tool result, in order; they show how the user's intent evolved.
7. Pending tasks: what the user asked for that is not done yet.
8. Current work: exactly what was being worked on just before this summary, with file names and code.
9. Optional next step: only a step that directly follows the user's latest explicit request, quoting the recent conversation verbatim so the task does not drift. Leave it out when the last task was finished.

There may be further summarization instructions in the context (for example a "Compact Instructions" section in CLAUDE.md); follow them too.`;

export function legacySummaryPrompt(instructions?: string): string {
  const extra = instructions?.trim() ? `\n\nAdditional instructions:\n${instructions.trim()}` : '';
  return `${TEXT_ONLY}\n\n${BASE}${extra}\n\nReminder: ${TEXT_ONLY}`;
}

export const SUMMARIZER_TOOL_DENIAL = 'No tools are available while summarizing: answer with the text summary only.';
