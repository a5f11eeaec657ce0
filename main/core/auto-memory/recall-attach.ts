import { freshnessOf, memoryDates, todayOf } from '../../../common/memory-file/index.js';
import type { MemoryFile } from './memory-files.js';

/** One memory file as attached to a user turn (docs/memory.md#auto-memory relevant memories). */
export interface RecalledMemory {
  relPath: string;
  absPath: string;
  title: string;
  ageDays: number;
  /**
   * `Memory: <path> — saved N days ago — verify before relying on it`, plus what its dates say when it is
   * past them (docs/memory.md#freshness); fixed at creation so the bytes stay cache-stable.
   */
  header: string;
  /** The file's text within the line and byte caps, with a note when cut. */
  content: string;
  /** UTF-8 bytes of header + content, what the session budget counts. */
  bytes: number;
  /** The content is the whole file, uncut: the agent has seen all of it, as if it had read it. */
  whole: boolean;
}

export interface AttachLimits {
  maxLines: number;
  maxBytes: number;
  sessionBytes: number;
}

const DAY_MS = 86_400_000;
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

export function ageLine(mtimeMs: number, now: number): string {
  const days = Math.max(0, Math.floor((now - mtimeMs) / DAY_MS));
  const when = days === 0 ? 'today' : days === 1 ? '1 day ago' : `${days} days ago`;
  return `saved ${when} — verify before relying on it`;
}

/**
 * docs/memory.md#freshness: a memory past its valid-until day is still attached (the user may ask about
 * the past) but says it is no longer true; one due for review says so.
 */
export function freshnessNote(file: Pick<MemoryFile, 'data'>, now: number): string {
  const dates = memoryDates(file.data);
  const state = freshnessOf(dates, todayOf(now));
  if (state === 'expired') return ` — valid until ${dates.validUntil}, so no longer true unless the user says it still is`;
  if (state === 'review-due') return ` — due for review since ${dates.reviewOn}: confirm it with the user before relying on it`;
  return '';
}

/** Cuts to `maxLines`, then to `maxBytes` UTF-8 bytes including the note that says where the rest is. */
export function capContent(text: string, absPath: string, limits: Pick<AttachLimits, 'maxLines' | 'maxBytes'>): string {
  const lines = text.split('\n');
  let out = lines.length > limits.maxLines ? lines.slice(0, limits.maxLines).join('\n') : text;
  if (out === text && utf8(text) <= limits.maxBytes) return text;
  const note = `\n\n[cut at ${limits.maxLines} lines / ${limits.maxBytes} bytes — Read ${absPath} for the whole file]`;
  const room = limits.maxBytes - utf8(note);
  if (utf8(out) > room) {
    let bytes = Buffer.from(out, 'utf8').subarray(0, Math.max(0, room)).toString('utf8');
    if (bytes.endsWith('\uFFFD')) bytes = bytes.slice(0, -1); // a split multi-byte character
    out = bytes;
  }
  return out + note;
}

/**
 * Turns chosen files into attachments: never one already attached or read in the session (by absolute or
 * relative path), each within the per-file caps, all within what is left of the session budget.
 */
export function attachMemories(
  chosen: readonly MemoryFile[],
  options: { limits: AttachLimits; now: number; sessionBytesUsed: number; seen: ReadonlySet<string>; max: number },
): RecalledMemory[] {
  const out: RecalledMemory[] = [];
  let used = options.sessionBytesUsed;
  for (const file of chosen) {
    if (out.length >= options.max) break;
    if (options.seen.has(file.absPath) || options.seen.has(file.relPath) || out.some((o) => o.absPath === file.absPath)) continue;
    const header = `Memory: ${file.absPath} — ${ageLine(file.mtimeMs, options.now)}${freshnessNote(file, options.now)}`;
    const content = capContent(file.text, file.absPath, options.limits);
    const bytes = utf8(header) + 2 + utf8(content);
    if (used + bytes > options.limits.sessionBytes) continue;
    used += bytes;
    out.push({
      relPath: file.relPath,
      absPath: file.absPath,
      title: file.name ?? file.relPath,
      ageDays: Math.max(0, Math.floor((options.now - file.mtimeMs) / DAY_MS)),
      header,
      content,
      bytes,
      whole: content === file.text,
    });
  }
  return out;
}

/** The attachment as the model sees it, wrapped as a reminder (docs/memory.md#recall step 9). */
export function renderRecalled(memory: RecalledMemory): string {
  return `<system-reminder>\n${memory.header}\n\n${memory.content}\n</system-reminder>`;
}
