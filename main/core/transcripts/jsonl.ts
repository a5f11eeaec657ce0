import type { TranscriptRecord } from './records.js';

/** A line that could not be read as a record; reading goes on past it. */
export interface MalformedLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

export interface ParsedTranscript {
  records: TranscriptRecord[];
  malformed: MalformedLine[];
  /**
   * The last line had no newline and did not parse: a write cut off by a crash. It is skipped, and the
   * next append starts on a fresh line so it never glues onto it.
   */
  tornTail: boolean;
}

function parseLine(text: string): TranscriptRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  if (typeof (value as { type?: unknown }).type !== 'string') return 'no "type" field';
  return value as TranscriptRecord;
}

/** Parses JSONL text, tolerating blank and malformed lines (reported, never fatal). */
export function parseJsonl(text: string, firstLineNumber = 1): ParsedTranscript {
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  const out: ParsedTranscript = { records: [], malformed: [], tornTail: false };
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (typeof parsed !== 'string') {
      out.records.push(parsed);
      return;
    }
    const isLast = index === lines.length - 1;
    if (isLast && !endsWithNewline) out.tornTail = true;
    else out.malformed.push({ line: firstLineNumber + index, reason: parsed });
  });
  return out;
}

/** One batch of records as JSONL text: each record on its own line, ending with a newline. */
export function serializeRecords(records: readonly TranscriptRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Parses complete lines only (for head and tail windows of a file), skipping what does not parse. */
export function parseCompleteLines(lines: readonly string[]): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const parsed = parseLine(line);
    if (typeof parsed !== 'string') out.push(parsed);
  }
  return out;
}
