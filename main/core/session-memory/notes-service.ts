import { createHash } from 'node:crypto';
import path from 'node:path';
import type { SessionNotes } from '../../../common/domain/chat.js';
import { err, ok, type Result } from '../../../common/result.js';
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
  constructor(
    private readonly vaultRoot: string,
    private readonly updater: SessionNotesUpdater,
  ) {}

  async read(projectDir: string, sessionId: string): Promise<SessionNotes> {
    const file = await this.updater.notesPath(projectDir, sessionId);
    return this.view(sessionId, file, await readNotes(file));
  }

  write(projectDir: string, sessionId: string, text: string, baseHash: string | null): Promise<Result<SessionNotes>> {
    return this.updater.runExclusive(sessionId, async () => {
      const file = await this.updater.notesPath(projectDir, sessionId);
      const current = await readNotes(file);
      const currentHash = current === null ? null : hashOf(current);
      if (currentHash !== baseHash) return err('conflict', 'the notes changed since they were loaded; reload them and edit again');
      await writeFileAtomic(file, text, { mode: NOTES_FILE_MODE, dirMode: NOTES_DIR_MODE });
      return ok(this.view(sessionId, file, text));
    });
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
