import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';

/**
 * What this session has read (issue 3 item 3): Edit, and Write over an existing file, need a prior
 * Read of the current content. A file changed since (mtime and content hash both differ) must be
 * read again, so the model never edits text it has not seen.
 */
export class ReadState {
  private readonly seen = new Map<string, { mtimeMs: number; hash: string }>();

  static hash(content: string | Buffer): string {
    return createHash('sha256').update(content).digest('hex');
  }

  async record(file: string, content: string | Buffer): Promise<void> {
    const { mtimeMs } = await fs.stat(file);
    this.seen.set(file, { mtimeMs, hash: ReadState.hash(content) });
  }

  /** The files read so far (real paths): recall never attaches one of them again. */
  paths(): string[] {
    return [...this.seen.keys()];
  }

  forget(file: string): void {
    this.seen.delete(file);
  }

  /** null when the current content was read; otherwise the reason the model must Read first. */
  async check(file: string, current: string): Promise<string | null> {
    const entry = this.seen.get(file);
    if (!entry) return `File has not been read yet. Read it first before writing to it.`;
    const { mtimeMs } = await fs.stat(file);
    if (mtimeMs === entry.mtimeMs || ReadState.hash(current) === entry.hash) return null;
    return 'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';
  }
}
