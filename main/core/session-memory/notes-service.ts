import { createHash } from 'node:crypto';
import path from 'node:path';
import { Emitter } from '../../../common/async/event.js';
import type { SessionNotes } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { writeFileAtomic } from '../fs/index.js';
import { NOTES_DIR_MODE, NOTES_FILE_MODE, readNotes } from './notes-file.js';
import type { SessionNotesUpdater } from './session-notes-updater.js';

const hashOf = (text: string): string => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/**
 * The side panel's view of a session's notes (`notes:read` / `notes:write`, docs/memory.md#session-notes **Beyond**). A
 * user's save waits for a running update to finish and is refused when the notes changed since the
 * user loaded them (`baseHash`), so neither side overwrites the other.
 */
export class SessionNotesService {
  private readonly didChange = new Emitter<SessionNotes>();
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

  /** Saves the user's text over the version they loaded (`baseHash`); any other version there is a `conflict` and nothing is written. */
  write(projectDir: string, sessionId: string, text: string, baseHash: string | null): Promise<SessionNotes> {
    return this.updater.runExclusive(sessionId, async () => {
      const file = await this.updater.notesPath(projectDir, sessionId);
      const current = await readNotes(file);
      const currentHash = current === null ? null : hashOf(current);
      if (currentHash !== baseHash) {
        throw new AppFailure('conflict', 'The notes changed while you were editing. Your text was not saved; copy it and edit again.');
      }
      await writeFileAtomic(file, text, { mode: NOTES_FILE_MODE, dirMode: NOTES_DIR_MODE });
      const saved = this.view(sessionId, file, text);
      this.didChange.fire(saved);
      return saved;
    });
  }

  /** Reads a session's notes and tells the listeners, `updating` saying whether an update runs now (it starts or ends). */
  async announce(projectDir: string, sessionId: string, updating: boolean): Promise<void> {
    this.didChange.fire({ ...(await this.read(projectDir, sessionId)), updating });
  }

  private view(sessionId: string, file: string, text: string | null): SessionNotes {
    return {
      sessionId,
      path: path.relative(this.vaultRoot, file).split(path.sep).join('/'),
      exists: text !== null,
      text: text ?? '',
      hash: text === null ? null : hashOf(text),
      updating: this.updater.isUpdating(sessionId),
    };
  }
}
