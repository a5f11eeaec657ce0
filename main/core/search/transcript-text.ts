/**
 * The searchable part of a JSONL transcript (docs/memory.md#vault-upkeep): the user's and the assistant's own text
 * only — no tool inputs or results, no meta records — one entry per record, with the record's 1-based
 * line in the file so a hit can point at it.
 */
export interface TranscriptText {
  /** One line per message (its newlines flattened), joined with `\n`. */
  text: string;
  /** `lineMap[i]` = the JSONL line of `text`'s line i (0-based i). */
  lineMap: number[];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: unknown) => {
      const b = block as { type?: unknown; text?: unknown };
      return b && b.type === 'text' && typeof b.text === 'string' ? b.text : '';
    })
    .filter(Boolean)
    .join(' ');
}

export function transcriptText(jsonl: string): TranscriptText {
  const lines: string[] = [];
  const lineMap: number[] = [];
  jsonl.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let record: { type?: unknown; isMeta?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      record = JSON.parse(raw) as typeof record;
    } catch {
      // A torn last line (a writer mid-append) or a foreign line is skipped, not fatal.
      return;
    }
    if ((record.type !== 'user' && record.type !== 'assistant') || record.isMeta === true) return;
    const text = textOf(record.message?.content).replace(/\s+/g, ' ').trim();
    if (!text) return;
    lines.push(text);
    lineMap.push(i + 1);
  });
  return { text: lines.join('\n'), lineMap };
}
