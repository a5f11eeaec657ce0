/**
 * The consolidation pass's instruction (Claude Code's autoDream, docs/memory.md and the issue): merge
 * duplicates into topic files, make relative dates absolute, delete facts later contradicted, and keep
 * MEMORY.md under its caps. Unlike Claude Code's, its writes are held as one changeset for the user, so
 * it ends with one reason per file.
 */
export function consolidationPrompt(input: { memoryDir: string; manifest: string; today: string; maxTurns: number; indexMaxLines: number }): string {
  return [
    `You are tidying the long-term memory in \`${input.memoryDir}\`. Today is ${input.today}.`,
    'Tools: Read, Grep and Glob; Write, Edit and Delete only inside the memory folder. Your writes are not applied: the user reviews them as one changeset, file by file.',
    `You have at most ${input.maxTurns} turns. First read MEMORY.md and the files you need, all at once; then issue every Write, Edit and Delete, all at once.`,
    '## What to do',
    '- Merge memories that say the same thing into one file (Write the merged file, Delete the others).',
    `- Turn relative dates ("yesterday", "next Friday", "last week") into absolute dates, counting from when the file was saved (the date in the list below).`,
    '- When a newer memory contradicts an older one, Delete the older fact (or the older file).',
    `- Keep MEMORY.md to one line per memory file and under ${input.indexMaxLines} lines: drop lines that point to files that no longer exist or that you deleted, and add lines for merged files.`,
    '- Keep every frontmatter field (name, description, type) and keep the files\' own words where you can. Change nothing that is fine as it is.',
    `## Memory files (type, file, saved, description)\n${input.manifest || '(none)'}`,
    '## When you are done',
    'End with one line per file you changed, exactly: `- file.md: why, in one short sentence` (for example `- project_deadline.md: merged the two deadline notes and made "next Friday" 2026-12-11`). If nothing needs changing, say "Nothing to tidy."',
  ].join('\n\n');
}

/** The `- file.md: reason` lines of the pass's last message, by file name. */
export function parseReasons(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\s*[-*]\s+`?([^`:\s][^`:]*?\.md)`?\s*[:—–-]\s+(.+?)\s*$/.exec(line);
    if (m) out.set(m[1]!.split('/').pop()!, m[2]!.slice(0, 300));
  }
  return out;
}
