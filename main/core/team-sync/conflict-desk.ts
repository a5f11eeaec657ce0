import { readLocalFile, writeLocalFile } from './local-tree.js';
import { keepBoth } from './keep-both.js';
import type { SyncStateStore } from './sync-state.js';
import type { TeamSyncEngineOptions } from './sync-types.js';

/** The choice of a conflict's resolution (SPEC §5 **Beyond**): `text` is required for `merged`. */
export interface ConflictResolution {
  keep: 'mine' | 'theirs' | 'both' | 'merged';
  text?: string;
}

/** The three texts of the three-way view; null = absent (a deleted side or an unknown base). */
export interface ConflictTexts {
  key: string;
  base: string | null;
  mine: string | null;
  theirs: string | null;
  /** Who made the other side's change and when, as the team server recorded it; null when unknown. */
  theirsBy: string | null;
  theirsAt: string | null;
}

export interface DeletedFile {
  key: string;
  deletedAt: string;
  by: 'local' | 'remote';
}

/** A user-facing refusal with a code, as every engine error that reaches a user (house rules). */
export class TeamSyncFailure extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_request' | 'conflict',
    message: string,
  ) {
    super(message);
    this.name = 'TeamSyncFailure';
  }
}

/**
 * The user's side of conflicts and deletions, shared by the engine's serialised queue. A resolution
 * only moves the base to "theirs" and sets the file: the next push uploads the result, and the key is
 * held back until then (SPEC §5).
 */
export class ConflictDesk {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly opts: Pick<TeamSyncEngineOptions, 'teamDir' | 'clock'>,
    protected readonly store: SyncStateStore,
  ) {}

  listConflicts(): Promise<string[]> {
    return this.exclusive(async () => Object.keys((await this.store.load()).conflicts).sort());
  }

  readConflict(key: string): Promise<ConflictTexts> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const conflict = state.conflicts[key];
      if (!conflict) throw new TeamSyncFailure('not_found', `${key} has no conflict`);
      return {
        key,
        base: await this.store.getBase(conflict.baseHash),
        mine: (await readLocalFile(this.opts.teamDir, key))?.text ?? null,
        theirs: await this.store.readConflict(key),
        theirsBy: conflict.theirsBy ?? null,
        theirsAt: conflict.theirsAt ?? null,
      };
    });
  }

  /** Resolves a conflict; call `sync()` (or let the scheduler push) to upload the result. */
  resolveConflict(key: string, resolution: ConflictResolution): Promise<void> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const conflict = state.conflicts[key];
      if (!conflict) throw new TeamSyncFailure('not_found', `${key} has no conflict`);
      const theirs = await this.store.readConflict(key);
      if (theirs === null) throw new TeamSyncFailure('not_found', `the server's version of ${key} is missing`);
      if (resolution.keep === 'merged' && resolution.text === undefined) throw new TeamSyncFailure('invalid_request', 'a merged resolution needs its text');
      await this.store.putBase(theirs);
      if (resolution.keep === 'theirs') await writeLocalFile(this.opts.teamDir, key, theirs, null);
      if (resolution.keep === 'merged') await writeLocalFile(this.opts.teamDir, key, resolution.text!, null);
      if (resolution.keep === 'both') await keepBoth(this.opts.teamDir, key, theirs, conflict.theirsBy ?? null, conflict.theirsAt ?? conflict.detectedAt);
      // Theirs is what the server holds: as the base, whatever stays in place now reads as a local change.
      state.bases[key] = conflict.theirsHash;
      delete state.conflicts[key];
      await this.store.save(state);
      await this.store.removeConflict(key);
    });
  }

  /** Deleted files that can still be restored (tombstones kept `tombstoneDays`, SPEC §5). */
  listDeleted(): Promise<DeletedFile[]> {
    return this.exclusive(async () =>
      Object.entries((await this.store.load()).deleted)
        .map(([key, d]) => ({ key, deletedAt: d.deletedAt, by: d.by }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    );
  }

  /** Puts a deleted file back; the next push uploads it again. */
  restoreDeleted(key: string): Promise<void> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const record = state.deleted[key];
      if (!record) throw new TeamSyncFailure('not_found', `${key} is not among the restorable deletions`);
      if (await readLocalFile(this.opts.teamDir, key)) throw new TeamSyncFailure('conflict', `${key} exists again; rename it before restoring`);
      const text = await this.store.getBase(record.hash);
      if (text === null) throw new TeamSyncFailure('not_found', `the text of ${key} is no longer kept`);
      await writeLocalFile(this.opts.teamDir, key, text, null);
      delete state.deleted[key];
      await this.store.save(state);
    });
  }

  protected exclusive<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
