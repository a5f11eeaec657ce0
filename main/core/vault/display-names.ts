import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { parseCompleteLines } from '../transcripts/index.js';
import { isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import { promptText } from '../transcripts/index.js';

/** How much of a transcript's head is read for its first question or its working folder. */
const HEAD_BYTES = 64 * 1024;
const MAX_TITLE = 120;
const RETRY_MS = 30_000;

const oneLine = (s: string) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
};

/**
 * The title session notes give themselves: the first line of content under `# Session Title`, the
 * template's italic instruction line (`_…_`) skipped; null while the section is still empty.
 */
export function notesSessionTitle(text: string): string | null {
  const m = /^# Session Title[ \t]*\r?\n([\s\S]*?)(?=^# |(?![\s\S]))/m.exec(text);
  if (!m) return null;
  for (const raw of m[1]!.split('\n')) {
    const line = raw.trim();
    if (line === '' || /^_[^_][\s\S]*_$/.test(line)) continue;
    return oneLine(line.replace(/^[-*+]\s+/, '').replace(/^\*\*(.*)\*\*$/, '$1'));
  }
  return null;
}

/** The records at the head of a transcript (sync: the vault's scan reads files synchronously). */
function transcriptHead(file: string): TranscriptRecord[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    const lines = buf.subarray(0, n).toString('utf8').split('\n');
    if (n === HEAD_BYTES) lines.pop(); // the last line may be cut
    return parseCompleteLines(lines);
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

/** A conversation's first question (what a session is named by when its notes have no title yet). */
export function firstQuestion(transcriptFile: string): string | null {
  return firstQuestionOf(transcriptHead(transcriptFile));
}

/** The same, from a transcript's text already read. */
export function firstQuestionIn(text: string): string | null {
  const lines = text.slice(0, HEAD_BYTES).split('\n');
  if (text.length > HEAD_BYTES) lines.pop();
  return firstQuestionOf(parseCompleteLines(lines));
}

function firstQuestionOf(records: TranscriptRecord[]): string | null {
  for (const record of records) {
    if (!isMessageRecord(record)) continue;
    const text = promptText(record);
    if (text) return oneLine(text);
  }
  return null;
}

/**
 * Names for project folders (`projects/<slug>`): the folder name of the opened project with that
 * slug, else of the working folder its transcripts record (`cwd`, as Claude Code writes it too),
 * else the slug without its leading dash. Slugs are lossy (`/`, `.` and `-` all became `-`), so no part
 * of one is guessed into a name.
 */
export class ProjectNames {
  /** What transcripts said, by slug; "nothing" is asked again after a while (a first transcript may come). */
  private readonly fromTranscripts = new Map<string, { cwd: string | null; at: number }>();
  private opened = new Map<string, string>();

  constructor(private readonly root: string) {}

  setOpened(bySlug: Map<string, string>): void {
    this.opened = bySlug;
  }

  name(projectSlug: string): string {
    const opened = this.opened.get(projectSlug);
    if (opened) return path.basename(opened);
    let known = this.fromTranscripts.get(projectSlug);
    if (!known || (known.cwd === null && Date.now() - known.at > RETRY_MS)) {
      known = { cwd: this.cwdOf(projectSlug), at: Date.now() };
      this.fromTranscripts.set(projectSlug, known);
    }
    const cwd = known.cwd;
    return cwd ? path.basename(cwd) || cwd : projectSlug.replace(/^-+/, '') || projectSlug;
  }

  private cwdOf(projectSlug: string): string | null {
    const dir = path.join(this.root, 'projects', projectSlug);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.jsonl')).slice(0, 5);
    } catch {
      return null;
    }
    for (const n of names) {
      for (const record of transcriptHead(path.join(dir, n))) {
        const cwd = (record as { cwd?: unknown }).cwd;
        if (typeof cwd === 'string' && cwd.trim()) return cwd;
      }
    }
    return null;
  }
}
