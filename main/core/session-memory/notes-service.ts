import { createHash } from 'node:crypto';
import path from 'node:path';
import { Emitter } from '../../../common/async/event.js';
import type { SessionNotes } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { merge3 } from '../../../common/text/merge3.js';
import { writeFileAtomic } from '../fs/index.js';
import { NOTES_DIR_MODE, NOTES_FILE_MODE, readNotes } from './notes-file.js';
import type { SessionNotesUpdater } from './session-notes-updater.js';

const hashOf = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/** How many versions the service remembers by hash, to merge a save based on one of them (a handful per open conversation). */
const REMEMBERED_VERSIONS = 64;

/**
 * The side panel's view of a session's notes (`notes:read` / `notes:write`, docs/memory.md#session-notes **Beyond**). A
 * user's save waits for a running update to finish; when the notes changed since the version the user
 * started from (`baseHash`), the two edits are merged line by line against that version, and only a
 * change to the same lines is refused (`conflict`), so neither side overwrites the other — even when
 * the save is the last one of a panel closed or a page left, with nobody there to merge it.
 */
export class SessionNotesService {
  private readonly didChange = new Emitter<SessionNotes>();
  /** Texts of the versions handed out lately, by hash: the bases a save may come from. */
  private readonly versions = new Map<string, string>();
  /** A session's notes after the user saved them or an update started or ended (the only source of `notes:did-change`). */
  readonly onDidChange = this.didChange.event;

  constructor(
    private readonly vaultRoot: string,
    private readonly updater: SessionNotesUpdater,
  ) {}

  async read(projectDir: string, sessionId: string): Promise<SessionNotes> {
    const file = await this.updater.notesPath(projectDir, sessionId);
    return this.view(sessionId, file, await readNotes(file));
  }

  /**
   * Saves the user's text, an edit of the version `baseHash` (null: the file did not exist). A version
   * written there meanwhile (the updater's) is merged with it; the saved text — merged or not — comes
   * back. Overlapping changes, or a base this service never handed out, are a `conflict` and nothing is written.
   */
  write(projectDir: string, sessionId: string, text: string, baseHash: string | null): Promise<SessionNotes> {
    return this.updater.runExclusive(sessionId, async () => {
      const file = await this.updater.notesPath(projectDir, sessionId);
      const current = await readNotes(file);
      const currentHash = current === null ? null : hashOf(current);
      let saving = text;
      if (currentHash !== baseHash) {
        const base = baseHash === null ? '' : this.versions.get(baseHash);
        const merged = base === undefined ? null : merge3(base, text, current ?? '');
        if (!merged?.clean) {
          throw new AppFailure('conflict', 'The notes were updated on the same lines you changed. Nothing was saved yet: choose what to keep.');
        }
        saving = merged.text;
      }
      if (saving !== current) await writeFileAtomic(file, saving, { mode: NOTES_FILE_MODE, dirMode: NOTES_DIR_MODE });
      const saved = this.view(sessionId, file, saving);
      this.didChange.fire(saved);
      return saved;
    });
  }

  /** Reads a session's notes and tells the listeners, `updating` saying whether an update runs now (it starts or ends). */
  async announce(projectDir: string, sessionId: string, updating: boolean): Promise<void> {
    this.didChange.fire({ ...(await this.read(projectDir, sessionId)), updating });
  }

  private view(sessionId: string, file: string, text: string | null): SessionNotes {
    const hash = text === null ? null : this.remember(text);
    return {
      sessionId,
      path: path.relative(this.vaultRoot, file).split(path.sep).join('/'),
      exists: text !== null,
      text: text ?? '',
      hash,
      updating: this.updater.isUpdating(sessionId),
    };
  }

  /** Keeps `text` as a base a later save may come from; its hash. */
  private remember(text: string): string {
    const hash = hashOf(text);
    this.versions.delete(hash);
    this.versions.set(hash, text);
    const oldest = this.versions.keys().next();
    if (this.versions.size > REMEMBERED_VERSIONS && !oldest.done) this.versions.delete(oldest.value);
    return hash;
  }
}
