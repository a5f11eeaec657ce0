import path from 'node:path';
import { promises as fs } from 'node:fs';
import { readJsonFile, writeJsonAtomic } from '../fs/index.js';
import { assertSessionId } from '../paths/index.js';
import { KeyedSequencer } from '../../../common/async/sequencer.js';
import type { IncognitoSessions } from './incognito.js';

/**
 * One engine's part of a session's state file: its key and how to read it back. `parse` receives
 * whatever is stored (possibly `undefined` or an older shape) and must return a valid value.
 */
export interface SessionStateSlot<T> {
  key: string;
  parse(raw: unknown): T;
}

/**
 * Per-session app state in `<vault>/.strata/sessions/<sessionId>.json` (docs/memory.md#session-notes: cursors survive a
 * restart). Engines each own one top-level key; an update rewrites the file atomically and keeps every
 * other key. Updates of one file are serialized within this store, so share one instance per vault.
 */
export class SessionStateStore {
  private readonly queue = new KeyedSequencer();
  readonly dir: string;

  /** `incognito`: those sessions keep their state beside their transcript, outside the vault. */
  constructor(vaultRoot: string, private readonly incognito?: IncognitoSessions) {
    this.dir = path.join(vaultRoot, '.strata', 'sessions');
  }

  fileFor(sessionId: string): string {
    assertSessionId(sessionId);
    if (this.incognito?.has(sessionId)) return path.join(this.incognito.dirFor('.state'), `${sessionId}.json`);
    return path.join(this.dir, `${sessionId}.json`);
  }

  async get<T>(sessionId: string, slot: SessionStateSlot<T>): Promise<T> {
    return slot.parse((await this.readWhole(this.fileFor(sessionId)))[slot.key]);
  }

  /** Applies `change` to the slot's current value and stores the result. */
  update<T>(sessionId: string, slot: SessionStateSlot<T>, change: (current: T) => T): Promise<T> {
    const file = this.fileFor(sessionId);
    return this.queue.run(file, async () => {
      const whole = await this.readWhole(file);
      const next = change(slot.parse(whole[slot.key]));
      await writeJsonAtomic(file, { ...whole, [slot.key]: next }, { mode: 0o600, dirMode: 0o700 });
      return next;
    });
  }

  /** Removes the whole state of a session (every engine's key). */
  remove(sessionId: string): Promise<void> {
    const file = this.fileFor(sessionId);
    return this.queue.run(file, () => fs.rm(file, { force: true }));
  }

  /** A file that is missing or not a JSON object reads as empty: state is a cache of progress, never a blocker. */
  private async readWhole(file: string): Promise<Record<string, unknown>> {
    const raw = await readJsonFile(file).catch(() => undefined);
    return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  }
}
