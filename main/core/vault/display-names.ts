import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { parseCompleteLines } from '../transcripts/index.js';
import { conversationTitle, titleSourcesOf, type TranscriptRecord } from '../transcripts/index.js';

/** How much of each end of a transcript is read for its title or its working folder. */
const WINDOW_BYTES = 64 * 1024;
const RETRY_MS = 30_000;

/** The records on the complete lines of `text` (a line cut by a window's edge is dropped). */
function linesOf(text: string, cutStart: boolean, cutEnd: boolean): TranscriptRecord[] {
  const lines = text.split('\n');
  if (cutStart) lines.shift();
  if (cutEnd) lines.pop();
  return parseCompleteLines(lines);
}

/** The records at the head of a transcript, and at its tail when it is longer (sync: the vault's scan reads files synchronously). */
function transcriptEnds(file: string, withTail: boolean): TranscriptRecord[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const size = fstatSync(fd).size;
    const read = (position: number, length: number) => {
      const buf = Buffer.alloc(length);
      return buf.subarray(0, readSync(fd, buf, 0, length, position)).toString('utf8');
    };
    if (size <= WINDOW_BYTES * (withTail ? 2 : 1)) return linesOf(read(0, size), false, false);
    const head = linesOf(read(0, WINDOW_BYTES), false, true);
    return withTail ? [...head, ...linesOf(read(size - WINDOW_BYTES, WINDOW_BYTES), true, false)] : head;
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

/** The same ends of a transcript already read. */
function textEnds(text: string): TranscriptRecord[] {
  if (text.length <= 2 * WINDOW_BYTES) return linesOf(text, false, false);
  return [...linesOf(text.slice(0, WINDOW_BYTES), false, true), ...linesOf(text.slice(-WINDOW_BYTES), true, false)];
}

/**
 * A conversation's title as the chat names it (`conversationTitle`: a rename, the notes' Session Title,
 * its first question as it stands), from its transcript's text and its notes file; read as the chat's
 * list reads them, from the ends of the transcript.
 */
export function transcriptTitle(text: string, notesFile: string): string | null {
  return conversationTitle({ ...titleSourcesOf(textEnds(text)), notes: readTextOrNull(notesFile) });
}

/** The same for a conversation whose notes are `notesText`, read from its transcript file. */
export function notesTitle(notesText: string, transcriptFile: string): string | null {
  return conversationTitle({ ...titleSourcesOf(transcriptEnds(transcriptFile, true)), notes: notesText });
}

function readTextOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
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
      for (const record of transcriptEnds(path.join(dir, n), false)) {
        const cwd = (record as { cwd?: unknown }).cwd;
        if (typeof cwd === 'string' && cwd.trim()) return cwd;
      }
    }
    return null;
  }
}
