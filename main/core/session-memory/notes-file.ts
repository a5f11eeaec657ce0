import { promises as fs } from 'node:fs';
import path from 'node:path';
import { assertSessionId } from '../paths/index.js';
import { slug } from '../paths/index.js';

/** docs/memory.md#session-notes: the notes folder is private to the user (0700), the file too (0600). */
export const NOTES_DIR_MODE = 0o700;
export const NOTES_FILE_MODE = 0o600;

/** The project folder's real path (docs/memory.md#where-things-live slugs real paths); the resolved path when it does not exist. */
export async function realProjectPath(projectDir: string): Promise<string> {
  const resolved = path.resolve(projectDir);
  return fs.realpath(resolved).catch(() => resolved);
}

/** `<vault>/projects/<slug>/<sessionId>/session-memory/summary.md` for an already-real project path. */
export function notesPathFor(vaultRoot: string, realProject: string, sessionId: string): string {
  assertSessionId(sessionId);
  return path.join(vaultRoot, 'projects', slug(realProject), sessionId, 'session-memory', 'summary.md');
}

/**
 * Creates the notes file from the template on first use; an existing file is never overwritten
 * (exclusive create, docs/memory.md#session-notes). Returns whether this call created it.
 */
export async function ensureNotesFile(notesPath: string, template: string): Promise<boolean> {
  const dir = path.dirname(notesPath);
  await fs.mkdir(path.dirname(dir), { recursive: true });
  // Only the notes folder itself is private; the session folder is shared with the transcript's neighbours.
  await fs.mkdir(dir, { mode: NOTES_DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(notesPath, 'wx', NOTES_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(template);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** The notes text, or null when the file does not exist. */
export async function readNotes(notesPath: string): Promise<string | null> {
  try {
    return await fs.readFile(notesPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
