import { z } from 'zod';
import { SessionStateStore, type SessionStateSlot } from '../transcripts/index.js';
import type { TriggerState } from './trigger.js';

/**
 * A session's session-memory state (docs/memory.md#session-notes), kept under the `sessionMemory` key of
 * `<vault>/.strata/sessions/<sessionId>.json` so a restart resumes it. Other engines keep their own
 * keys in the same file; only this key is rewritten.
 */
export interface SessionMemoryState extends TriggerState {
  /** The last message the notes cover; consumed by session-memory compaction (docs/memory.md#compaction). */
  lastSummarizedMessageId: string | null;
  /** When the running update started (epoch ms), or null: compaction waits on it (docs/memory.md#compaction). */
  updateStartedAt: number | null;
}

export const initialSessionMemoryState: SessionMemoryState = {
  initialized: false,
  updateCursorUuid: null,
  tokensAtLastUpdate: 0,
  lastSummarizedMessageId: null,
  updateStartedAt: null,
};

const stateSchema = z.object({
  initialized: z.boolean().catch(false),
  updateCursorUuid: z.string().nullable().catch(null),
  tokensAtLastUpdate: z.number().nonnegative().catch(0),
  lastSummarizedMessageId: z.string().nullable().catch(null),
  updateStartedAt: z.number().nullable().catch(null),
});

/** The `sessionMemory` slot of the shared session state file; any stored shape parses to a valid state. */
export const sessionMemorySlot: SessionStateSlot<SessionMemoryState> = {
  key: 'sessionMemory',
  parse(raw) {
    const parsed = stateSchema.safeParse(raw ?? {});
    return parsed.success ? parsed.data : { ...initialSessionMemoryState };
  },
};

/**
 * Session-memory state over the vault's `SessionStateStore`. Pass the app's one shared store so writes
 * of every engine to one session file are serialized together.
 */
export class SessionMemoryStateStore {
  readonly sessions: SessionStateStore;

  constructor(vaultRootOrStore: string | SessionStateStore) {
    this.sessions = typeof vaultRootOrStore === 'string' ? new SessionStateStore(vaultRootOrStore) : vaultRootOrStore;
  }

  fileFor(sessionId: string): string {
    return this.sessions.fileFor(sessionId);
  }

  read(sessionId: string): Promise<SessionMemoryState> {
    return this.sessions.get(sessionId, sessionMemorySlot);
  }

  update(sessionId: string, change: (state: SessionMemoryState) => SessionMemoryState): Promise<SessionMemoryState> {
    return this.sessions.update(sessionId, sessionMemorySlot, change);
  }
}
