import { constants, promises as fs, type Stats } from 'node:fs';

/** A NUL byte in the first 8 KB marks a file as binary (the heuristic git and grep use). */
export const BINARY_SNIFF_BYTES = 8192;

export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export async function statOrNull(p: string) {
  try {
    return await fs.stat(p);
  } catch {
    return null;
  }
}

/**
 * Files larger than this are not tracked for Edit and Write (they hold the whole text in memory): Read
 * still shows any part of them, Edit and Write refuse them with a clear message.
 */
export const EDITABLE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * What a path that is neither a file nor a folder is, in words for the model; null for those two.
 * Opening a FIFO blocks until a writer comes, and a device or socket never ends, so the tools refuse them.
 */
export function specialKind(st: Stats): string | null {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return null;
}

export type OpenedFile = { ok: true; handle: fs.FileHandle; size: number } | { ok: false; message: string };

/**
 * Opens a regular file for reading, refusing anything else. O_NONBLOCK makes the open itself return even
 * when the path was swapped for a FIFO after the caller's stat; the kind is then checked on the open
 * handle, so no race lets a pipe through (it has no effect on regular files).
 */
export async function openRegularFile(p: string, shown: string): Promise<OpenedFile> {
  const handle = await fs.open(p, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await handle.stat();
    const kind = specialKind(st) ?? (st.isFile() ? null : 'not a regular file');
    if (kind === null) return { ok: true, handle, size: st.size };
    await handle.close();
    return { ok: false, message: refusal(shown, kind) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export function refusal(shown: string, kind: string): string {
  return `${shown} is ${kind}, not a regular file; Read and Grep only read regular files.`;
}

/** A regular file's bytes, or null when it is not one, cannot be opened, or is over `maxBytes`. */
export async function readRegularFile(p: string, maxBytes: number): Promise<Buffer | null> {
  const opened = await openRegularFile(p, p).catch(() => null);
  if (!opened?.ok) return null;
  try {
    if (opened.size > maxBytes) return null;
    const buf = Buffer.alloc(opened.size);
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await opened.handle.read(buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buf.subarray(0, filled);
  } finally {
    await opened.handle.close();
  }
}
