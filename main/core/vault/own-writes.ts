/**
 * The vault's own writes, recognised by content hash rather than by timing (STYLE.md): before a write
 * the vault records the hash it is about to put on disk; when the watcher later sees that path with
 * that content, the event is the vault's own (`external: false`). A later external edit has another
 * hash, so it is never mistaken for ours however soon it follows.
 */
export class OwnWrites {
  private readonly writes = new Map<string, { hash: string; kind: 'added' | 'changed' }[]>();
  private readonly removals = new Map<string, number>();

  /** Records a write about to happen; `kind` is what the change will be reported as. */
  expectWrite(path: string, hash: string, kind: 'added' | 'changed'): void {
    const list = this.writes.get(path) ?? [];
    list.push({ hash, kind });
    // A path written many times before the watcher settles keeps only recent expectations.
    if (list.length > 32) list.shift();
    this.writes.set(path, list);
  }

  /** Records a removal (delete, or the old name of a rename) about to happen. */
  expectRemoval(path: string): void {
    this.removals.set(path, (this.removals.get(path) ?? 0) + 1);
  }

  /**
   * Whether `hash` at `path` is one of our writes; consumes it and every older expectation (the
   * watcher may coalesce several quick writes into the last one).
   */
  consumeWrite(path: string, hash: string | null): { kind: 'added' | 'changed' } | null {
    const list = this.writes.get(path);
    if (!list || hash === null) return null;
    const index = list.findLastIndex((w) => w.hash === hash);
    if (index === -1) return null;
    const found = list[index]!;
    list.splice(0, index + 1);
    if (list.length === 0) this.writes.delete(path);
    return { kind: found.kind };
  }

  consumeRemoval(path: string): boolean {
    const count = this.removals.get(path) ?? 0;
    if (count === 0) return false;
    if (count === 1) this.removals.delete(path);
    else this.removals.set(path, count - 1);
    // A write expected at a path we then removed will never be seen.
    this.writes.delete(path);
    return true;
  }

  /** Forgets a write that failed before reaching the disk. */
  cancelWrite(path: string, hash: string): void {
    const list = this.writes.get(path);
    if (!list) return;
    const index = list.findIndex((w) => w.hash === hash);
    if (index !== -1) list.splice(index, 1);
    if (list.length === 0) this.writes.delete(path);
  }
}
