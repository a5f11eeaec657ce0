import { promises as fs } from 'node:fs';
import os from 'node:os';
import { copyKeys, copyTitle, indexWithCopy, renameMemory, versionLabel } from './keep-both.js';
import { defaultMemoryConfig } from '../../../common/config.js';
import type { IndexLineSkipped } from '../../../common/domain/vault.js';
import { addRestoredIndexLine, skippedTeamIndexLine } from './restored-index-line.js';
import { Sequencer } from '../../../common/async/sequencer.js';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import { AppFailure } from '../../../common/result.js';
import { readLocalFile, removeLocalFile, writeLocalFile } from './local-tree.js';
import type { SyncState, SyncStateStore } from './sync-state.js';
import type { TeamSyncEngineOptions } from './sync-types.js';

/** The choice of a conflict's resolution (docs/memory.md#team-memory **Beyond**): `text` is required for `merged`. */
export interface ConflictResolution {
  keep: 'mine' | 'theirs' | 'both' | 'merged';
  text?: string;
  /** Who wrote the local version (the signed-in account), for the copy "keep both" makes; see keep-both.ts. */
  author?: string;
}

/** The three texts of the three-way view; null = absent (a deleted side or an unknown base). */
export interface ConflictTexts {
  key: string;
  base: string | null;
  mine: string | null;
  theirs: string | null;
  /** When this device received the server's version. */
  receivedAt: string;
  /** Who made the other side's change and when (ISO), as the team server recorded it; null when unknown. */
  theirsBy: string | null;
  theirsAt: string | null;
}

/**
 * What one "keep both" changed, so Undo can put the conflict back as it was: the conflict record with
 * its base, the two texts, and each file as Keep both left it (Undo checks they still are).
 */
interface KeptBoth {
  conflict: SyncState['conflicts'][string];
  baseText: string | null;
  mine: string;
  theirs: string;
  copyKey: string;
  copyText: string;
  /** MEMORY.md before and after; null when Keep both left it alone. */
  index: { before: string | null; after: string } | null;
}

export interface DeletedFile {
  key: string;
  deletedAt: string;
  by: 'local' | 'remote';
}


/**
 * The user's side of conflicts and deletions, shared by the engine's serialised queue. A resolution
 * only moves the base to "theirs" and sets the file: the next push uploads the result, and the key is
 * held back until then (docs/memory.md#team-memory).
 */
export class ConflictDesk {
  private readonly queue = new Sequencer();
  /** The last "keep both" of each key, undoable until the key is resolved again (this run of the app only). */
  private readonly keptBoth = new Map<string, KeptBoth>();

  constructor(
    private readonly opts: Pick<TeamSyncEngineOptions, 'teamDir' | 'clock' | 'indexCaps'>,
    protected readonly store: SyncStateStore,
  ) {}

  listConflicts(): Promise<string[]> {
    return this.exclusive(async () => Object.keys((await this.store.load()).conflicts).sort());
  }

  readConflict(key: string): Promise<ConflictTexts> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const conflict = state.conflicts[key];
      if (!conflict) throw new AppFailure('not_found', `${key} has no conflict`);
      return {
        key,
        base: await this.store.getBase(conflict.baseHash),
        mine: (await readLocalFile(this.opts.teamDir, key))?.text ?? null,
        theirs: await this.store.readConflict(key),
        receivedAt: await this.receivedAt(key, conflict.detectedAt),
        theirsBy: conflict.theirsBy ?? null,
        theirsAt: conflict.theirsAt ?? null,
      };
    });
  }

  /**
   * Resolves a conflict; call `sync()` (or let the scheduler push) to upload the result. The keys
   * written, and the copy's index line a full MEMORY.md left out after Keep both.
   */
  resolveConflict(key: string, resolution: ConflictResolution): Promise<{ written: string[]; indexSkipped?: IndexLineSkipped }> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const conflict = state.conflicts[key];
      if (!conflict) throw new AppFailure('not_found', `${key} has no conflict`);
      const theirs = await this.store.readConflict(key);
      if (theirs === null) throw new AppFailure('not_found', `the server's version of ${key} is missing`);
      if (resolution.keep === 'merged' && resolution.text === undefined) throw new AppFailure('invalid_request', 'a merged resolution needs its text');
      await this.store.putBase(theirs);
      let written = [key];
      let indexSkipped: IndexLineSkipped | undefined;
      this.keptBoth.delete(key);
      if (resolution.keep === 'theirs') await writeLocalFile(this.opts.teamDir, key, theirs, null);
      if (resolution.keep === 'merged') await writeLocalFile(this.opts.teamDir, key, resolution.text!, null);
      if (resolution.keep === 'both') {
        const kept = await this.keepBoth(key, theirs, resolution.author);
        written = kept.written;
        indexSkipped = kept.indexSkipped;
        if (kept.undo) this.keptBoth.set(key, { ...kept.undo, conflict, baseText: await this.store.getBase(conflict.baseHash) });
      }
      // Theirs is what the server holds: as the base, whatever stays in place now reads as a local change.
      state.bases[key] = conflict.theirsHash;
      delete state.conflicts[key];
      await this.store.save(state);
      await this.store.removeConflict(key);
      return indexSkipped ? { written, indexSkipped } : { written };
    });
  }

  /**
   * Undoes the last "keep both" of `key`: the conflict comes back as it was (yours in place, theirs
   * aside, the same base), the copy goes, MEMORY.md is as before. Only when every file is still as Keep
   * both left it; else nothing is touched and the refusal names what changed. The conflict is recorded
   * before a file moves, so a crash midway leaves the key held back from the push, never yours pushed
   * over theirs; the copy goes last, so yours is never in neither place. The keys written.
   */
  undoKeepBoth(key: string): Promise<string[]> {
    return this.exclusive(async () => {
      const kept = this.keptBoth.get(key);
      if (!kept) throw new AppFailure('not_found', `There is no Keep both of ${key} to undo.`);
      const state = await this.store.load();
      const text = async (k: string) => (await readLocalFile(this.opts.teamDir, k))?.text ?? null;
      const changed = [
        ...((await text(key)) === kept.theirs && !state.conflicts[key] ? [] : [key]),
        ...((await text(kept.copyKey)) === kept.copyText ? [] : [kept.copyKey]),
        ...(kept.index && (await text('MEMORY.md')) !== kept.index.after ? ['MEMORY.md'] : []),
      ];
      if (changed.length > 0) {
        this.keptBoth.delete(key);
        throw new AppFailure('conflict', `${changed.join(' and ')} changed after Keep both, so nothing was undone: the files stay as they are now.`);
      }
      if (kept.baseText !== null) await this.store.putBase(kept.baseText);
      await this.store.writeConflict(key, kept.theirs);
      state.conflicts[key] = kept.conflict;
      if (kept.conflict.baseHash === null) delete state.bases[key];
      else state.bases[key] = kept.conflict.baseHash;
      await this.store.save(state);
      await writeLocalFile(this.opts.teamDir, key, kept.mine, null);
      if (kept.index?.before === null) await removeLocalFile(this.opts.teamDir, 'MEMORY.md');
      else if (kept.index) await writeLocalFile(this.opts.teamDir, 'MEMORY.md', kept.index.before, null);
      await removeLocalFile(this.opts.teamDir, kept.copyKey);
      this.keptBoth.delete(key);
      return [key, kept.copyKey, ...(kept.index ? ['MEMORY.md'] : [])];
    });
  }

  /** Deleted files that can still be restored (tombstones kept `tombstoneDays`, docs/memory.md#team-memory). */
  listDeleted(): Promise<DeletedFile[]> {
    return this.exclusive(async () =>
      Object.entries((await this.store.load()).deleted)
        .map(([key, d]) => ({ key, deletedAt: d.deletedAt, by: d.by }))
        .sort((a, b) => a.key.localeCompare(b.key)),
    );
  }

  /**
   * Puts a deleted file back, with its MEMORY.md line when that fits under the index's caps (else the
   * line left out is returned, restored-index-line.ts); the next push uploads both again.
   */
  restoreDeleted(key: string): Promise<IndexLineSkipped | null> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const record = state.deleted[key];
      if (!record) throw new AppFailure('not_found', `${key} is not among the restorable deletions`);
      if (await readLocalFile(this.opts.teamDir, key)) throw new AppFailure('conflict', `${key} exists again; rename it before restoring`);
      const text = await this.store.getBase(record.hash);
      if (text === null) throw new AppFailure('not_found', `the text of ${key} is no longer kept`);
      await writeLocalFile(this.opts.teamDir, key, text, null);
      delete state.deleted[key];
      await this.store.save(state);
      return addRestoredIndexLine(this.opts.teamDir, key, text, this.opts.indexCaps ?? defaultMemoryConfig.autoMemory);
    });
  }

  /**
   * When the server's version now kept aside arrived: a newer one from the teammate replaces the kept
   * file (its mtime) but not the conflict's `detectedAt`, so the later of the two.
   */
  private async receivedAt(key: string, detectedAt: string): Promise<string> {
    const written = (await fs.stat(this.store.conflictFile(key)).catch(() => null))?.mtimeMs ?? 0;
    return written > Date.parse(detectedAt) ? new Date(written).toISOString() : detectedAt;
  }

  protected exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.queue.run(task);
  }

  /**
   * Theirs at the key, mine in a sibling memory named by its author and day, indexed in MEMORY.md next
   * to the original (keep-both.ts says why mine is the copy). Mine deleted: only theirs comes back.
   */
  private async keepBoth(
    key: string,
    theirs: string,
    author: string | undefined,
  ): Promise<{ written: string[]; undo: Omit<KeptBoth, 'conflict' | 'baseText'> | null; indexSkipped?: IndexLineSkipped }> {
    const mine = await readLocalFile(this.opts.teamDir, key);
    if (!mine || mine.text === theirs) {
      await writeLocalFile(this.opts.teamDir, key, theirs, null);
      return { written: [key], undo: null };
    }
    const who = author ?? localUser();
    const now = new Date(this.opts.clock.now());
    const label = versionLabel(who, now);
    let copyKey = '';
    for (const candidate of copyKeys(key, who, now)) {
      if (!(await readLocalFile(this.opts.teamDir, candidate))) {
        copyKey = candidate;
        break;
      }
    }
    const title = copyTitle(mine.text, key, label);
    // The copy first: a crash before theirs lands leaves mine in both places, never in neither.
    const copyText = renameMemory(mine.text, title);
    await writeLocalFile(this.opts.teamDir, copyKey, copyText, null);
    await writeLocalFile(this.opts.teamDir, key, theirs, null);
    const undo = { mine: mine.text, theirs, copyKey, copyText, index: null };
    // A copy of the index itself is no memory to point at.
    if (key === 'MEMORY.md') return { written: [copyKey, key], undo };
    const index = (await readLocalFile(this.opts.teamDir, 'MEMORY.md'))?.text ?? null;
    const hook = parseMemoryFile(mine.text).description ?? `kept beside ${key} when both changed`;
    const caps = this.opts.indexCaps ?? defaultMemoryConfig.autoMemory;
    const { text: after, limit } = indexWithCopy(index, key, copyKey, title, hook, caps);
    // The copy is kept either way; a full index keeps its lines, and the user hears why the copy is not listed.
    if (limit) return { written: [copyKey, key], undo, indexSkipped: skippedTeamIndexLine(this.opts.teamDir, limit, caps) };
    await writeLocalFile(this.opts.teamDir, 'MEMORY.md', after, null);
    return { written: [copyKey, key, 'MEMORY.md'], undo: { ...undo, index: { before: index, after } } };
  }
}

/** The OS account, when the app has no signed-in account to name the author by. */
function localUser(): string {
  try {
    return os.userInfo().username || 'this device';
  } catch {
    return 'this device';
  }
}
