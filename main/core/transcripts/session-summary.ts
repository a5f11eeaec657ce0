import { promises as fs } from 'node:fs';
import { parseCompleteLines } from './jsonl.js';
import { conversationTitle, currentFirstQuestion, oneLineTitle, type TitleSources } from './conversation-title.js';
import { isMessageRecord, type OtherRecord, type TranscriptRecord } from './records.js';

/** One line of the sessions list. */
export interface SessionSummary {
  sessionId: string;
  /** Absolute path of the transcript. */
  file: string;
  /** A custom title (rename), else a `summary` record, else the first question as it stands; null if none found. */
  title: string | null;
  /** Each of those, for a caller that names the conversation by its notes too (`conversationTitle`). */
  titles: Omit<TitleSources, 'notes'>;
  /** Epoch ms of the first record's timestamp, else the file's birth/modification time. */
  createdAt: number;
  /** Epoch ms of the last record's timestamp, else the file's modification time. */
  updatedAt: number;
  /** user + assistant records. */
  messageCount: number;
  /** True when the file is larger than the head and tail windows and the middle was estimated. */
  messageCountApproximate: boolean;
  sizeBytes: number;
}

/** Bytes read from each end of a transcript when listing: titles and times live there. */
export const SUMMARY_WINDOW_BYTES = 64 * 1024;
/** How far a title search reads when the head window holds no complete prompt. */
const LONG_HEAD_BYTES = 4 * 1024 * 1024;

/** Claude Code's rename record: `{type: "custom-title", customTitle, sessionId}`. */
export interface CustomTitleRecord extends OtherRecord {
  type: 'custom-title';
  customTitle: string;
  sessionId: string;
}

function timestampOf(record: TranscriptRecord): number | null {
  const ts = (record as { timestamp?: unknown }).timestamp;
  if (typeof ts !== 'string') return null;
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? null : ms;
}

/** What the transcript's records say the conversation is called (the notes are read by the caller). */
export function titleSourcesOf(records: TranscriptRecord[]): Omit<TitleSources, 'notes'> {
  const newest = (pick: (r: TranscriptRecord) => unknown) => {
    for (let i = records.length - 1; i >= 0; i--) {
      const value = pick(records[i]!);
      if (typeof value === 'string' && value.trim()) return oneLineTitle(value);
    }
    return null;
  };
  return {
    custom: newest((r) => (r.type === 'custom-title' ? r.customTitle : null)),
    summary: newest((r) => (r.type === 'summary' ? r.summary : null)),
    firstQuestion: currentFirstQuestion(records),
  };
}

const countMessages = (records: TranscriptRecord[]) => records.filter(isMessageRecord).length;

/**
 * Summarizes a transcript from its first and last `window` bytes only, so listing hundreds of long
 * sessions stays fast; the message count of the unread middle is estimated from the read lines.
 */
export async function summarizeTranscript(file: string, sessionId: string, window = SUMMARY_WINDOW_BYTES): Promise<SessionSummary> {
  const handle = await fs.open(file, 'r');
  try {
    const stat = await handle.stat();
    const size = stat.size;
    const read = async (position: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead).toString('utf8');
    };
    let head: TranscriptRecord[];
    let tail: TranscriptRecord[];
    let messageCount: number;
    let approximate = false;
    if (size <= 2 * window) {
      const lines = (await read(0, size)).split('\n');
      head = parseCompleteLines(lines);
      tail = head;
      messageCount = countMessages(head);
    } else {
      const headLines = (await read(0, window)).split('\n');
      headLines.pop();
      const tailLines = (await read(size - window, window)).split('\n');
      tailLines.shift();
      head = parseCompleteLines(headLines);
      tail = parseCompleteLines(tailLines);
      const readBytes = Buffer.byteLength(headLines.join('\n')) + Buffer.byteLength(tailLines.join('\n'));
      const seen = countMessages(head) + countMessages(tail);
      const middleBytes = Math.max(0, size - readBytes);
      messageCount = seen + Math.round(readBytes > 0 ? (middleBytes * seen) / readBytes : 0);
      approximate = true;
    }
    // The first question walks back from the newest message: the tail's records lead to the head's.
    let titles = titleSourcesOf(head === tail ? head : [...head, ...tail]);
    if (conversationTitle({ ...titles, notes: null }) === null && size > 2 * window) {
      // A first message with a large attachment can fill the head window: look further for the prompt.
      const longer = (await read(0, Math.min(size, LONG_HEAD_BYTES))).split('\n');
      longer.pop();
      titles = titleSourcesOf(parseCompleteLines(longer));
    }
    const firstTs = head.map(timestampOf).find((t) => t !== null) ?? null;
    const lastTs = [...tail].reverse().map(timestampOf).find((t) => t !== null) ?? null;
    return {
      sessionId,
      file,
      title: conversationTitle({ ...titles, notes: null }),
      titles,
      createdAt: firstTs ?? (stat.birthtimeMs || stat.mtimeMs),
      updatedAt: lastTs ?? stat.mtimeMs,
      messageCount,
      messageCountApproximate: approximate,
      sizeBytes: size,
    };
  } finally {
    await handle.close();
  }
}
