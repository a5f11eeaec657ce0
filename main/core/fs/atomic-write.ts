import { close, constants as fsConstants, fsync, open, promises as fs, writeFile } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

// The temp file goes through a plain descriptor, not a `FileHandle`: the promise API's handle costs
// about three times as much per file (a sync pull writes thousands; bench sync-first-pull).
const openFd = promisify(open);
const writeFd = promisify(writeFile);
const syncFd = promisify(fsync);
const closeFd = promisify(close);

export interface AtomicWriteOptions {
  /** File mode for a new file (an existing file keeps its mode). */
  mode?: number;
  /** Create missing parent folders with this mode. */
  dirMode?: number;
  /**
   * Runs with the new content written and fsynced, right before the rename; `false` abandons the write
   * (temp removed, target untouched). A sync pull re-checks the target here: the user may have saved it
   * while the download was being written (docs/sync-protocol.md#a-client-that-loses-nothing, Syncthing's re-check before replacing).
   */
  beforeRename?: () => Promise<boolean>;
}

/**
 * Writes a file so a crash leaves either the old or the new content whole: write a temp file in the
 * same folder synchronously to disk, rename it over the target (rename is atomic within one file system).
 * Resolves false only when `beforeRename` abandoned the write.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<boolean> {
  const dir = path.dirname(file);
  let mode = options.mode ?? 0o644;
  await fs.mkdir(dir, { recursive: true, mode: options.dirMode ?? 0o755 });
  try {
    mode = (await fs.stat(file)).mode & 0o777;
  } catch {
    // New file: the requested mode stands.
  }
  const temp = await writeTempFile(dir, data, mode);
  try {
    if (options.beforeRename && !(await options.beforeRename())) {
      await fs.rm(temp, { force: true });
      return false;
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  return true;
}

/**
 * Create-exclusive, with O_DSYNC: each write returns once its data (and the size needed to read it back)
 * is on disk, the guarantee fdatasync gives, which is what a rename exposing the content needs. One call
 * a file fewer than write + fsync (a sync pull writes thousands). Null where the flag does not exist
 * (Windows): an explicit fsync instead.
 */
const newSyncedFileFlags =
  fsConstants.O_DSYNC === undefined ? null : fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_DSYNC;

/**
 * Writes `data` to a new temp file in `dir`, on disk when this resolves (O_DSYNC, or an fsync where the
 * flag does not exist), and returns its path. On failure no temp file is left.
 */
export async function writeTempFile(dir: string, data: string | Uint8Array, mode: number): Promise<string> {
  // A short name of its own, not the target's name plus a suffix: a target whose name is already
  // at the file system's 255-byte limit must still be writable (docs on team sync, key rules).
  const temp = path.join(dir, tempFileName());
  const fd = await openFd(temp, newSyncedFileFlags ?? 'wx', mode);
  try {
    await writeFd(fd, data);
    if (newSyncedFileFlags === null) await syncFd(fd);
  } catch (error) {
    // A full disk or a failed flush: no half-written temp file is left beside the target.
    await closeFd(fd).catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
  await closeFd(fd);
  return temp;
}

/** Prefix and suffix of every temp file `writeFileAtomic` makes: `.strata-<12 hex>.tmp`. */
export const atomicTempPattern = /^\.strata-[0-9a-f]{12}\.tmp$/;

// Random bytes drawn a thousand names at a time: one call each costs more than the rest of naming
// (a sync pull names thousands of temp files).
let pool = Buffer.alloc(0);
let used = 0;

/** `.strata-<12 hex>.tmp`, matching `atomicTempPattern`. */
export function tempFileName(): string {
  if (used + 6 > pool.length) {
    pool = randomBytes(6 * 1024);
    used = 0;
  }
  used += 6;
  return `.strata-${pool.toString('hex', used - 6, used)}.tmp`;
}

/** Reads and parses a JSON file; `undefined` when it does not exist. Other errors propagate. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text) as unknown;
}

export async function writeJsonAtomic(file: string, value: unknown, options?: AtomicWriteOptions): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, options);
}
