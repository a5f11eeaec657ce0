import { createHash } from 'node:crypto';

/**
 * What this session has read (docs/architecture.md#the-agent): Edit, and Write over an existing file, need a prior
 * Read of the current content. A file whose content changed since must be read
 * again, so the model never edits text it has not seen.
 */
export class ReadState {
  private readonly seen = new Map<string, string>();

  static hash(content: string | Buffer): string {
    return createHash('sha256').update(content).digest('hex');
  }

  async record(file: string, content: string | Buffer): Promise<void> {
    this.seen.set(file, ReadState.hash(content));
  }

  /** As `record`, with the sha256 (hex) already computed while streaming the file. */
  recordDigest(file: string, digest: string): void {
    this.seen.set(file, digest);
  }

  /** The files read so far (real paths): recall never attaches one of them again. */
  paths(): string[] {
    return [...this.seen.keys()];
  }

  forget(file: string): void {
    this.seen.delete(file);
  }

  /**
   * null when the current content is what was read; otherwise the reason the model must Read first.
   * Judged by content alone: an unchanged mtime proves nothing on file systems with coarse timestamps
   * (FAT, HFS+, some network mounts), where an edit in the same second keeps it, and a touched file
   * whose text is the same is still the text the model saw.
   */
  async check(file: string, current: string): Promise<string | null> {
    const seen = this.seen.get(file);
    if (!seen) return `File has not been read yet. Read it first before writing to it.`;
    if (ReadState.hash(current) === seen) return null;
    return 'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';
  }
}
