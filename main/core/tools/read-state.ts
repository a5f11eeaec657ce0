import { createHash } from 'node:crypto';

/**
 * What this session has read (docs/architecture.md#the-agent): Edit, and Write over an existing file, need a prior
 * Read of the current content. A file whose content changed since must be read
 * again, so the model never edits text it has not seen.
 */
export class ReadState {
  private readonly seen = new Map<string, string>();

  /**
   * With `parent`, what the parent has read counts as read here too (its later reads included), while
   * what is read here stays here: a background fork sees the conversation's reads as Claude Code's
   * forks do (they start from a clone of the parent's read state), and the conversation never sees the
   * fork's.
   */
  constructor(private readonly parent?: ReadState) {}

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
    return this.parent ? [...new Set([...this.parent.paths(), ...this.seen.keys()])] : [...this.seen.keys()];
  }

  private digestOf(file: string): string | undefined {
    return this.seen.get(file) ?? this.parent?.digestOf(file);
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
    const seen = this.digestOf(file);
    if (!seen) return `File has not been read yet. Read it first before writing to it.`;
    if (ReadState.hash(current) === seen) return null;
    return 'File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.';
  }
}
