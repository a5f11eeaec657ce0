import { isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';

/**
 * The field a recall attachment's meta record carries: which memory files it attached and their size,
 * written when the attachment is made. Claude Code ignores fields it does not know.
 */
export const RECALL_FIELD = 'strataRecall';

export interface RecallNote {
  paths: string[];
  bytes: number;
}

const isRecallNote = (v: unknown): v is RecallNote =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as RecallNote).paths) &&
  (v as RecallNote).paths.every((p) => typeof p === 'string') &&
  typeof (v as RecallNote).bytes === 'number';

/**
 * docs/memory.md#auto-memory recall bookkeeping for one conversation: a memory is attached once while it is in the
 * context, and all attachments count against the session's byte budget.
 */
export class RecallLedger {
  private readonly attached = new Set<string>();
  private used = 0;

  /** Memory files attached and still in the context (absolute paths). */
  get paths(): ReadonlySet<string> {
    return this.attached;
  }

  get bytes(): number {
    return this.used;
  }

  /** From the records in the context: a resumed conversation's attachments, or those a compaction kept. */
  recount(records: readonly TranscriptRecord[]): void {
    this.attached.clear();
    this.used = 0;
    for (const r of records) {
      const note = isMessageRecord(r) && r.isMeta ? (r as unknown as Record<string, unknown>)[RECALL_FIELD] : undefined;
      if (isRecallNote(note)) this.add(note);
    }
  }

  /** Counts a new attachment and returns the note its record carries. */
  attach(memories: readonly { absPath: string; bytes: number }[]): RecallNote {
    const note = { paths: memories.map((m) => m.absPath), bytes: memories.reduce((n, m) => n + m.bytes, 0) };
    this.add(note);
    return note;
  }

  private add(note: RecallNote): void {
    for (const p of note.paths) this.attached.add(p);
    this.used += note.bytes;
  }
}
