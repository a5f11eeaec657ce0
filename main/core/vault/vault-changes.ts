import { Emitter, type Event } from '../../../common/async/event.js';
import type { VaultChange } from '../../../common/domain/vault.js';
import type { IndexedDoc } from '../search/index.js';
import { takeChangeAuthor } from './change-authors.js';
import { scanDoc, type Difference } from './vault-catalog.js';
import type { VaultContext } from './vault-context.js';
import type { RawFileEvent } from './vault-watcher.js';
import { classifyVaultPath, hasHistory } from './vault-paths.js';

interface PendingUnlink {
  doc: IndexedDoc | null;
  own: boolean;
  timer: NodeJS.Timeout;
}

/**
 * Changes and events: turns the watchers' raw events into catalog updates and `VaultChange` batches —
 * own writes recognised by hash, an unlink and an add of the same file paired into a rename, and what
 * another writer replaced or removed snapshotted into history first.
 */
export class VaultChanges {
  private readonly changed: Emitter<VaultChange[]>;
  private batch: VaultChange[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly pendingUnlinks = new Map<string, PendingUnlink>();
  /** Catalog entries of files the vault itself removed, until the watcher reports the unlink. */
  private readonly ownRemoved = new Map<string, IndexedDoc>();

  constructor(
    private readonly vault: VaultContext,
    private readonly enqueue: (task: () => Promise<void> | void) => Promise<void>,
  ) {
    // One failing consumer must not keep the batch from the others (the index, the renderers).
    this.changed = new Emitter({ onListenerError: (error) => vault.options.logger.warn('vault: a change listener failed', { error: String(error) }) });
  }

  /** Batches of file changes (`vault:did-change-files`). */
  get onDidChange(): Event<VaultChange[]> {
    return this.changed.event;
  }

  /** Keeps the entry of a file about to be removed, so its unlink can still pair into a rename. */
  expectOwnRemoval(rel: string): void {
    const doc = this.vault.index.docs.get(rel);
    if (doc) this.ownRemoved.set(rel, doc);
    this.vault.own.expectRemoval(rel);
  }

  async onRawEvent(event: RawFileEvent): Promise<void> {
    const { index, own: ownWrites, history } = this.vault;
    const rel = event.path;
    if (!classifyVaultPath(rel)) return;
    if (event.type === 'unlink') {
      const own = ownWrites.consumeRemoval(rel);
      const doc = index.docs.get(rel) ?? (own ? this.ownRemoved.get(rel) : undefined) ?? null;
      if (own) this.ownRemoved.delete(rel);
      if (!doc && !own) return;
      index.remove(rel);
      this.vault.scheduleSave();
      if (!own && doc && hasHistory(doc.scope) && doc.hash !== null && !doc.meta.binary) {
        await history.snapshot(rel, doc.text, 'before-external-delete').catch((error: unknown) => {
          this.vault.options.logger.warn('vault: no snapshot before an external delete', { path: rel, error: String(error) });
        });
      }
      const timer = setTimeout(() => this.enqueue(() => this.settleUnlink(rel)), this.vault.cfg().renameWindowMs);
      this.pendingUnlinks.set(rel, { doc, own, timer });
      return;
    }
    const before = index.docs.get(rel) ?? null;
    const after = await scanDoc(this.vault.root, rel, this.vault.cfg().maxFileBytes, this.vault.projectDirs);
    if (!after) return;
    const own = ownWrites.consumeWrite(rel, after.hash);
    const renamedFrom = this.matchUnlink(after);
    if (!own && !renamedFrom && before && before.hash === after.hash && before.meta.error === after.meta.error) {
      index.upsert(after);
      return;
    }
    if (!own && before && hasHistory(before.scope) && before.hash !== null && !before.meta.binary && before.hash !== after.hash) {
      // A change from outside (another editor, the agent) is snapshotted too, from what was indexed.
      await history.snapshot(rel, before.text, 'before-external-change');
    }
    index.upsert(after);
    this.vault.scheduleSave();
    if (!before || own?.kind === 'added') await history.markPresent(rel);
    if (!own && hasHistory(after.scope) && after.hash !== null) {
      // Who wrote it: the agent or the extractor when their write hook said so, else someone outside Strata.
      await history.recordHead(rel, after.hash, takeChangeAuthor(this.vault.resolve(rel)) ?? { kind: 'outside' });
    }
    if (renamedFrom) {
      const pending = this.pendingUnlinks.get(renamedFrom)!;
      clearTimeout(pending.timer);
      this.pendingUnlinks.delete(renamedFrom);
      this.push({ kind: 'renamed', path: rel, from: renamedFrom, external: !(own && pending.own) });
      return;
    }
    const kind = own ? own.kind : before ? 'changed' : 'added';
    this.push({ kind, path: rel, external: !own });
    await this.renamePair(rel);
  }

  /**
   * A conversation is named by its transcript (a rename, its first question) and its notes (the Session
   * Title) together: when one of the two files changes, the other's entry takes the new title too.
   */
  private async renamePair(rel: string): Promise<void> {
    const location = classifyVaultPath(rel);
    if (!location?.sessionId || (location.scope !== 'transcript' && location.scope !== 'session-notes')) return;
    const folder = `projects/${location.projectSlug}`;
    const pair = location.scope === 'transcript' ? `${folder}/${location.sessionId}/session-memory/summary.md` : `${folder}/${location.sessionId}.jsonl`;
    const current = this.vault.index.docs.get(pair);
    if (!current) return;
    const fresh = await scanDoc(this.vault.root, pair, this.vault.cfg().maxFileBytes, this.vault.projectDirs);
    if (!fresh || fresh.meta.title === current.meta.title) return;
    this.vault.index.upsert(fresh);
    this.vault.scheduleSave();
    this.push({ kind: 'changed', path: pair, external: false });
  }

  emitDifferences(diffs: Difference[]): void {
    for (const d of diffs) {
      this.push({ kind: d.before && d.after ? 'changed' : d.after ? 'added' : 'removed', path: d.path, external: true });
    }
    if (diffs.length) this.vault.scheduleSave();
  }

  /** Reports every change received so far now. */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.batch.length === 0) return;
    const changes = this.batch;
    this.batch = [];
    this.changed.fire(changes);
  }

  close(): void {
    for (const p of this.pendingUnlinks.values()) clearTimeout(p.timer);
    this.pendingUnlinks.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  /** An unlink waiting in the rename window whose file is this one (same inode or same content). */
  private matchUnlink(doc: IndexedDoc): string | null {
    for (const [from, pending] of this.pendingUnlinks) {
      if (!pending.doc || from === doc.path) continue;
      if ((pending.doc.ino !== null && pending.doc.ino === doc.ino) || (pending.doc.hash !== null && pending.doc.hash === doc.hash)) return from;
    }
    return null;
  }

  private async settleUnlink(rel: string): Promise<void> {
    const pending = this.pendingUnlinks.get(rel);
    if (!pending) return;
    this.pendingUnlinks.delete(rel);
    if (this.vault.index.docs.has(rel)) return;
    if (!pending.own && pending.doc && hasHistory(pending.doc.scope) && pending.doc.hash !== null) {
      const last = (await this.vault.history.timeline(rel))[0];
      if (last) await this.vault.history.markDeleted(rel, last.hash);
    }
    this.push({ kind: 'removed', path: rel, external: !pending.own });
  }

  private push(change: VaultChange): void {
    this.batch.push(change);
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), 10);
  }
}
