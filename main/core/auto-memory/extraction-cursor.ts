import { readJsonFile, writeJsonAtomic } from '../fs/atomic-write.js';
import { sessionStateFile } from './memory-paths.js';

/** The extractor's state in a session's JSON (SPEC §4 cursor), under its own key. */
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

const KEY = 'extraction';

/**
 * `<vault>/.strata/sessions/<sessionId>.json`, key `extraction`. Other engines keep their own keys in the
 * same file, so every write is read-modify-write, atomic, and leaves the other keys alone.
 */
export class FileCursorStore implements CursorStore {
  constructor(private readonly vaultRoot: string) {}

  async read(sessionId: string): Promise<ExtractionCursor | null> {
    const doc = await this.readDoc(sessionId);
    const value = doc[KEY] as Partial<ExtractionCursor> | undefined;
    if (!value || typeof value !== 'object') return null;
    return {
      lastMessageUuid: typeof value.lastMessageUuid === 'string' ? value.lastMessageUuid : null,
      updatedAt: typeof value.updatedAt === 'string' ? value.updatedAt : '',
    };
  }

  async write(sessionId: string, cursor: ExtractionCursor): Promise<void> {
    const doc = await this.readDoc(sessionId);
    await writeJsonAtomic(sessionStateFile(this.vaultRoot, sessionId), { ...doc, [KEY]: cursor }, { mode: 0o600, dirMode: 0o700 });
  }

  private async readDoc(sessionId: string): Promise<Record<string, unknown>> {
    const raw = await readJsonFile(sessionStateFile(this.vaultRoot, sessionId)).catch(() => undefined);
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
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
