import { SessionStateStore, type SessionStateSlot } from '../transcripts/index.js';

/** The extractor's state in a session's JSON (docs/memory.md#auto-memory cursor), under its own key. */
export interface ExtractionCursor {
  /** The last message the previous successful run covered. */
  lastMessageUuid: string | null;
  updatedAt: string;
}

/** Where the cursor lives; tests and the CLI may pass an in-memory one. */
export interface CursorStore {
  read(sessionId: string): Promise<ExtractionCursor | null>;
  write(sessionId: string, cursor: ExtractionCursor): Promise<void>;
}

/** The extractor's slot (`extraction`) of the shared session state file; any other shape reads as no cursor. */
export const extractionSlot: SessionStateSlot<ExtractionCursor | null> = {
  key: 'extraction',
  parse(raw) {
    const value = raw as Partial<ExtractionCursor> | undefined;
    if (!value || typeof value !== 'object') return null;
    return {
      lastMessageUuid: typeof value.lastMessageUuid === 'string' ? value.lastMessageUuid : null,
      updatedAt: typeof value.updatedAt === 'string' ? value.updatedAt : '',
    };
  },
};

/**
 * `<vault>/.strata/sessions/<sessionId>.json`, key `extraction`, through the vault's `SessionStateStore`:
 * the notes updater and compaction write the same file, so pass the app's one shared store and every
 * engine's read-modify-write of a session file is serialized with the others (no lost update).
 */
export class FileCursorStore implements CursorStore {
  readonly sessions: SessionStateStore;

  constructor(vaultRootOrStore: string | SessionStateStore) {
    this.sessions = typeof vaultRootOrStore === 'string' ? new SessionStateStore(vaultRootOrStore) : vaultRootOrStore;
  }

  read(sessionId: string): Promise<ExtractionCursor | null> {
    return this.sessions.get(sessionId, extractionSlot);
  }

  async write(sessionId: string, cursor: ExtractionCursor): Promise<void> {
    await this.sessions.update(sessionId, extractionSlot, () => cursor);
  }
}

/** An in-process cursor store (the CLI's one-off pass, tests). */
export class MemoryCursorStore implements CursorStore {
  private readonly cursors = new Map<string, ExtractionCursor>();
  async read(sessionId: string) {
    return this.cursors.get(sessionId) ?? null;
  }
  async write(sessionId: string, cursor: ExtractionCursor) {
    this.cursors.set(sessionId, cursor);
  }
}
