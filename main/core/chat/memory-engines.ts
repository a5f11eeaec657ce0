import { Emitter } from '../../../common/async/event.js';
import type { MemoryConfig } from '../../../common/config.js';
import { MemoryRecall, type MemoryFileSource } from '../auto-memory/index.js';
import { Compactor } from '../compact/index.js';
import type { Clock, Logger } from '../ports.js';
import { SessionMemoryStateStore, SessionNotesService, SessionNotesUpdater } from '../session-memory/index.js';
import type { IncognitoSessions } from '../transcripts/index.js';
import { SessionStateStore } from '../transcripts/index.js';

/**
 * The memory engines one vault shares across its conversations: the session-notes updater and the
 * compactor see one session state store, so their cursors and the running-update marker agree.
 */
export class MemoryEngines {
  readonly sessionState: SessionStateStore;
  readonly notes: SessionNotesUpdater;
  readonly compactor: Compactor;
  /** The notes panel's read and write, serialized with the updater. */
  readonly notesView: SessionNotesService;
  private readonly notesUpdating = new Emitter<{ sessionId: string; updating: boolean }>();
  /** A session's notes update started or ended (the notes panel's "updating"). */
  readonly onNotesUpdating = this.notesUpdating.event;
  private readonly recalls = new Map<string, { config: string; recall: MemoryRecall }>();

  constructor(
    private readonly deps: { vaultRoot: string; config: () => MemoryConfig; clock: Clock; logger: Logger; incognito?: IncognitoSessions; memoryFiles?: MemoryFileSource },
  ) {
    this.sessionState = new SessionStateStore(deps.vaultRoot, deps.incognito);
    const stateStore = new SessionMemoryStateStore(this.sessionState);
    // Getters: a change of the memory numbers in settings applies at once, as the context meter's does.
    this.notes = new SessionNotesUpdater({
      vaultRoot: deps.vaultRoot,
      config: () => deps.config().sessionMemory,
      clock: deps.clock,
      logger: deps.logger,
      stateStore,
      onUpdating: (event) => this.notesUpdating.fire(event),
    });
    this.notesView = new SessionNotesService(deps.vaultRoot, this.notes);
    this.compactor = new Compactor({ vaultRoot: deps.vaultRoot, config: () => deps.config().compaction, stateStore, clock: deps.clock, logger: deps.logger });
  }

  /**
   * Holds the vault watcher's first scan of every file while a turn gets to its answer: at 10,000
   * memories that scan fills the I/O threads the turn's own reads wait behind (docs/memory.md#recall
   * "Reading the folder"). Returns the release.
   */
  holdVaultScan(): () => void {
    return this.deps.memoryFiles?.holdScan?.() ?? (() => undefined);
  }

  /**
   * The recall of one memory folder, kept across turns and sessions: its scan re-reads only changed
   * files and its local index is updated rather than rebuilt. A change of the recall settings starts afresh.
   */
  recallFor(memoryDir: string): MemoryRecall {
    const config = this.deps.config().autoMemory;
    const key = JSON.stringify(config);
    const kept = this.recalls.get(memoryDir);
    if (kept?.config === key) return kept.recall;
    const recall = new MemoryRecall({ memoryDir, config, clock: this.deps.clock, source: this.deps.memoryFiles });
    this.recalls.set(memoryDir, { config: key, recall });
    return recall;
  }
}
