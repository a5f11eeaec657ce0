import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MemoryConfig } from '../../../common/config.js';
import { AppFailure } from '../../../common/result.js';
import type { HealthReport, HistoryVersion, MemoryIndexView, SearchHit, VaultChange, VaultFile, VaultFileMeta } from '../../../common/domain/vault.js';
import type { Clock, Logger } from '../ports.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import type { IndexedDoc, SearchQuery } from '../search/search-index.js';
import { SearchIndex } from '../search/search-index.js';
import { saveSearchCache } from '../search/index-cache.js';
import { decodeText, sha256 } from './file-scan.js';
import { renderMemoryFile } from '../../../common/memory-file/index.js';
import { parseMarkdown } from './markdown-view.js';
import { HistoryStore } from './history-store.js';
import { computeHealth } from './health.js';
import { addToIndex, buildIndexView, INDEX_FILE, parseIndex, removeFromIndex, retargetIndex } from './memory-index.js';
import { OwnWrites } from './own-writes.js';
import { loadCatalog, reconcile, scanDoc, type Difference } from './vault-catalog.js';
import { VaultWatcher, type RawFileEvent, type WatcherFactory } from './vault-watcher.js';
import { classifyVaultPath, hasHistory, isMemoryFile, isMemoryScope, memoryDir, PROJECTS_PREFIX, resolveVaultPath } from './vault-paths.js';
import { ProjectSources } from './project-sources.js';

/** `opening` until searchable, `ready` after, `root-missing` while the root folder is gone. */
export type { VaultState } from '../../../common/domain/app.js';
import type { VaultState } from '../../../common/domain/app.js';

export interface VaultOptions {
  /** The vault root's real path. */
  root: string;
  clock: Clock;
  logger: Logger;
  /** Read on every use, so a settings change applies without reopening. */
  config: () => MemoryConfig;
  watcherFactory?: WatcherFactory;
  /** Watch the root for changes (false for one-shot commands such as `strata search`). */
  watch?: boolean;
  /** Load and save the search cache under `.strata/cache/` (default true). */
  useCache?: boolean;
  /** Delay before the cache is written after a change (default 5 s). */
  cacheSaveDelayMs?: number;
}

interface PendingUnlink {
  doc: IndexedDoc | null;
  own: boolean;
  timer: NodeJS.Timeout;
}

/**
 * One vault root (issue 4 item 1): the catalog of its files, their full-text index, the watcher that
 * keeps both current and reports changes, the history of memory files, and the user's own actions
 * (edit, create, rename, delete, Undo, restore). Every write is atomic and recognised by its hash.
 */
export class Vault {
  private index = new SearchIndex();
  private history: HistoryStore;
  private readonly own = new OwnWrites();
  private watcher: VaultWatcher | null = null;
  private currentState: VaultState = 'closed';
  private readonly changeListeners = new Set<(changes: VaultChange[]) => void>();
  private readonly stateListeners = new Set<(state: VaultState) => void>();
  private batch: VaultChange[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly pendingUnlinks = new Map<string, PendingUnlink>();
  private queue: Promise<void> = Promise.resolve();
  private mutations: Promise<unknown> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | null = null;
  private cacheDirty = false;
  private readonly undo = new Map<string, { path: string; hash: string; indexLine: string | null }>();
  private watching: Promise<void> = Promise.resolve();
  private settled: Promise<void> = Promise.resolve();
  private closing = false;
  /** Catalog entries of files the vault itself removed, until the watcher reports the unlink. */
  private readonly ownRemoved = new Map<string, IndexedDoc>();
  /** The opened projects' own instruction files (`@projects/<slug>/…`) and their watchers. */
  private readonly projects: ProjectSources;

  constructor(private readonly options: VaultOptions) {
    const v = options.config().vault;
    this.history = new HistoryStore(options.root, options.clock, options.logger, { days: v.historyDays, maxBytes: v.historyMaxBytes });
    this.projects = new ProjectSources({
      root: options.root,
      logger: options.logger,
      factory: options.watcherFactory,
      writeFinishMs: () => this.cfg().writeFinishMs,
      maxBytes: () => this.cfg().maxFileBytes,
      index: () => this.index,
      enqueue: (task) => this.enqueue(task),
      onEvent: (event) => this.onRawEvent(event),
      report: (diffs) => this.emitDifferences(diffs),
    });
  }

  get root(): string {
    return this.options.root;
  }

  get state(): VaultState {
    return this.currentState;
  }

  /** The history engine (timeline, versions, deleted files) of this root. */
  get historyStore(): HistoryStore {
    return this.history;
  }

  /** Scans the root and builds the index (from the cache when usable); resolves once searchable. */
  async open(): Promise<void> {
    this.closing = false;
    this.setState('opening');
    const exists = await fs.stat(this.root).then((s) => s.isDirectory(), () => false);
    if (!exists) throw new AppFailure('not_found', `The vault folder ${this.root} does not exist`);
    const useCache = this.options.useCache ?? true;
    const loaded = await loadCatalog(this.root, this.cfg().maxFileBytes, this.options.logger, useCache);
    this.index = loaded.index;
    await this.enqueue(() => this.projects.sync());
    this.setState('ready');
    const index = this.index;
    this.settled = index.settle(() => this.index !== index || this.closing);
    if (loaded.dirty && useCache) this.scheduleSave();
    if (this.options.watch ?? true) {
      // The watcher starts once searchable (its own 10,000-file scan would slow the first one down);
      // whatever changed in between is caught by one reconcile pass when it is ready.
      this.watcher = new VaultWatcher({
        root: this.root,
        writeFinishMs: this.cfg().writeFinishMs,
        logger: this.options.logger,
        factory: this.options.watcherFactory,
        onEvent: (event) => this.enqueue(() => this.onRawEvent(event)),
        onState: (state) => this.enqueue(() => this.onWatcherState(state)),
      });
      this.watching = this.watcher
        .start()
        .then(() =>
          this.enqueue(async () => {
            this.emitDifferences(await reconcile(this.root, this.index, this.cfg().maxFileBytes));
            // Project watchers start with the root's, once the vault is searchable.
            this.projects.startWatching();
            await this.projects.sync();
          }),
        );
    }
  }

  /**
   * The opened projects (ProjectRegistry) whose own instruction files — `CLAUDE.md`, `.claude/CLAUDE.md`,
   * `.claude/rules/*.md`, `CLAUDE.local.md` (SPEC §6) — the vault lists, indexes, watches and edits as
   * `@projects/<slug of the folder>/…`. Call again when a project is opened or forgotten; resolves
   * once the catalog holds the new set.
   */
  setProjects(projects: readonly { path: string }[]): Promise<void> {
    this.projects.want(projects);
    return this.currentState === 'closed' ? Promise.resolve() : this.enqueue(() => this.projects.sync());
  }

  /** Resolves once the watcher has finished its initial scan (and the catch-up pass ran). */
  whenWatching(): Promise<void> {
    return this.watching;
  }

  /** Resolves once the search index has unpacked its posting lists (search-index.ts `settle`). */
  whenSettled(): Promise<void> {
    return this.settled;
  }

  /** Resolves once every watcher event received so far has been processed and reported. */
  async idle(): Promise<void> {
    await this.queue;
    this.flush();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.settled;
    await this.watcher?.close();
    this.watcher = null;
    await this.projects.close();
    await this.queue.catch(() => undefined);
    for (const p of this.pendingUnlinks.values()) clearTimeout(p.timer);
    this.pendingUnlinks.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    if (this.cacheDirty && (this.options.useCache ?? true) && this.currentState !== 'root-missing') await this.saveCache();
    this.setState('closed');
  }

  /** Subscribes to batches of file changes (`vault:did-change-files`); returns the unsubscribe. */
  onChanges(listener: (changes: VaultChange[]) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onState(listener: (state: VaultState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  list(): VaultFileMeta[] {
    return [...this.index.docs.values()].map((d) => d.meta).sort((a, b) => a.path.localeCompare(b.path));
  }

  search(query: string, options: SearchQuery = {}): SearchHit[] {
    return this.index.search(query, options);
  }

  /** Reads one file as text with its frontmatter; binary, oversized and unreadable files are refused. */
  async read(rel: string): Promise<VaultFile> {
    this.assertUsable();
    const abs = this.resolve(rel);
    const location = classifyVaultPath(rel);
    if (!location) throw new AppFailure('invalid_request', `${rel} is not a vault file`);
    const doc = await scanDoc(this.root, rel, this.cfg().maxFileBytes, this.projects.dirs);
    if (!doc) throw new AppFailure('not_found', `${rel} does not exist`);
    const { meta } = doc;
    if (meta.tooLarge) {
      throw new AppFailure('unsupported', `${rel} is ${mb(meta.size)}, over the ${mb(this.cfg().maxFileBytes)} limit: listed, not opened`);
    }
    if (meta.binary) throw new AppFailure('unsupported', `${rel} is not UTF-8 text: listed, not opened`);
    if (doc.hash === null) throw new AppFailure('permission_denied', `${rel}: ${meta.error ?? 'unreadable'}`);
    const text = await fs.readFile(abs, 'utf8');
    return this.fileView(meta, text);
  }

  /**
   * Writes a file atomically. `baseHash` is the hash the caller's text was based on (null: the file
   * must not exist yet); a mismatch is a `conflict`, so an edit made meanwhile is never overwritten.
   * A memory file's previous content is snapshotted first (issue 4 item 4).
   */
  write(rel: string, text: string, options: { baseHash?: string | null; reason?: string } = {}): Promise<VaultFile> {
    return this.mutate(() => this.writeLocked(rel, text, options));
  }

  /** Creates a memory file and its MEMORY.md line (a user action, SPEC §4). */
  createMemory(input: {
    projectSlug: string;
    team: boolean;
    fileName: string;
    name: string;
    description: string;
    type: string;
    body: string;
  }): Promise<VaultFile> {
    return this.mutate(async () => {
      const dir = memoryDir(input.projectSlug, input.team);
      if (input.fileName === INDEX_FILE || input.fileName.includes('/')) throw new AppFailure('invalid_request', `Not a memory file name: ${input.fileName}`);
      const rel = `${dir}/${input.fileName}`;
      const file = await this.writeLocked(rel, renderMemoryFile(input, input.body), { baseHash: null, reason: 'create' });
      await this.editIndex(dir, (t) => (parseIndex(t).some((l) => l.target === input.fileName) ? null : addToIndex(t, input.fileName, input.name, input.description)));
      return file;
    });
  }

  /**
   * The user checked a stale memory and it still holds: its modified time becomes now, so the health
   * panel stops flagging it and recall's "saved N days ago" tells the truth. The content is untouched.
   */
  markReviewed(rel: string): Promise<VaultFileMeta> {
    return this.mutate(async () => {
      this.assertUsable();
      const abs = this.resolve(rel);
      const location = classifyVaultPath(rel);
      if (!location || !isMemoryFile(rel, location.scope)) throw new AppFailure('invalid_request', `${rel} is not a memory`);
      const now = new Date(this.options.clock.now());
      await fs.utimes(abs, now, now).catch(() => {
        throw new AppFailure('not_found', `${rel} does not exist`);
      });
      const doc = await this.refresh(rel);
      return doc!.meta;
    });
  }

  /** Renames a file in its folder; for a memory, MEMORY.md lines pointing at the old name follow. */
  rename(rel: string, newFileName: string): Promise<VaultFileMeta> {
    return this.mutate(async () => {
      this.assertUsable();
      const from = this.resolve(rel);
      const location = classifyVaultPath(rel);
      const newRel = `${rel.slice(0, rel.lastIndexOf('/') + 1)}${newFileName}`;
      const to = this.resolve(newRel);
      if (!location || location.scope === 'transcript' || classifyVaultPath(newRel)?.scope !== location.scope) {
        throw new AppFailure('invalid_request', `${rel} cannot be renamed to ${newFileName}`);
      }
      if (rel.endsWith(`/${INDEX_FILE}`) || newFileName === INDEX_FILE) throw new AppFailure('invalid_request', 'MEMORY.md keeps its name');
      if (await exists(to)) throw new AppFailure('conflict', `${newRel} already exists`);
      const bytes = await fs.readFile(from).catch(() => {
        throw new AppFailure('not_found', `${rel} does not exist`);
      });
      this.expectOwnRemoval(rel);
      this.own.expectWrite(newRel, sha256(bytes), 'added');
      await fs.rename(from, to);
      await this.refresh(rel);
      const doc = await this.refresh(newRel);
      if (isMemoryScope(location.scope)) {
        const dir = memoryDirOf(rel);
        await this.editIndex(dir, (t) => retargetIndex(t, rel.slice(dir.length + 1), newRel.slice(dir.length + 1)));
      }
      return doc!.meta;
    });
  }

  /** Soft delete: snapshot, remove (and drop the MEMORY.md line of a memory); Undo brings both back. */
  delete(rel: string): Promise<{ undoToken: string }> {
    return this.mutate(async () => {
      this.assertUsable();
      const abs = this.resolve(rel);
      const location = classifyVaultPath(rel);
      if (!location || location.scope === 'transcript') throw new AppFailure('invalid_request', `${rel} cannot be deleted here`);
      const bytes = await fs.readFile(abs).catch(() => {
        throw new AppFailure('not_found', `${rel} does not exist`);
      });
      const version = await this.history.snapshot(rel, bytes, 'delete');
      this.expectOwnRemoval(rel);
      await fs.rm(abs);
      await this.history.markDeleted(rel, version.hash);
      await this.refresh(rel);
      let indexLine: string | null = null;
      if (isMemoryFile(rel, location.scope)) {
        const dir = memoryDirOf(rel);
        const target = rel.slice(dir.length + 1);
        await this.editIndex(dir, (t) => {
          indexLine = t.split('\n').find((l) => parseIndex(l).some((p) => p.target === target)) ?? null;
          return removeFromIndex(t, target);
        });
      }
      const undoToken = randomBytes(18).toString('base64url');
      this.undo.set(undoToken, { path: rel, hash: version.hash, indexLine });
      return { undoToken };
    });
  }

  /** Undoes a soft delete: the file comes back (never over a file made since) with its index line. */
  undoDelete(undoToken: string): Promise<{ restored: string }> {
    return this.mutate(async () => {
      const entry = this.undo.get(undoToken);
      if (!entry) throw new AppFailure('not_found', 'Nothing to undo (the app was restarted, or it was undone already)');
      const text = await this.history.readVersion(entry.path, entry.hash);
      await this.writeLocked(entry.path, text, { baseHash: null, reason: 'undo-delete' });
      const line = entry.indexLine;
      if (line) {
        const dir = memoryDirOf(entry.path);
        const target = entry.path.slice(dir.length + 1);
        await this.editIndex(dir, (t) => (parseIndex(t).some((l) => l.target === target) ? null : `${t}${t === '' || t.endsWith('\n') ? '' : '\n'}${line}\n`));
      }
      this.undo.delete(undoToken);
      return { restored: entry.path };
    });
  }

  /** Versions of a file, newest first. */
  timeline(rel: string): Promise<HistoryVersion[]> {
    this.resolve(rel);
    return this.history.timeline(rel);
  }

  /** A saved version and its diff against the current file (or against nothing, if deleted). */
  async readVersion(rel: string, hash: string): Promise<{ text: string; diff: string }> {
    const abs = this.resolve(rel);
    const text = await this.history.readVersion(rel, hash);
    const current = await fs.readFile(abs, 'utf8').catch(() => '');
    return { text, diff: this.history.diff(rel, text, current, [`saved ${hash.slice(0, 12)}`, 'current']) };
  }

  /**
   * Puts a saved version back; the current content is snapshotted first, so a restore is undoable. A
   * deleted memory that comes back gets its MEMORY.md line again (from its frontmatter) when it has none.
   */
  restore(rel: string, hash: string): Promise<VaultFile> {
    return this.mutate(async () => {
      const text = await this.history.readVersion(rel, hash);
      const wasDeleted = !this.index.docs.has(rel);
      const file = await this.writeLocked(rel, text, { reason: 'before-restore' });
      const location = classifyVaultPath(rel);
      if (wasDeleted && location && isMemoryFile(rel, location.scope)) {
        const dir = memoryDirOf(rel);
        const target = rel.slice(dir.length + 1);
        const fm = parseMarkdown(text, true).frontmatter;
        await this.editIndex(dir, (t) =>
          parseIndex(t).some((l) => l.target === target) ? null : addToIndex(t, target, fm?.name.trim() || target, fm?.description ?? ''),
        );
      }
      return file;
    });
  }

  listDeleted(): Promise<{ path: string; deletedAt: string; hash: string }[]> {
    return this.history.listDeleted().then((list) => list.filter((d) => !this.index.docs.has(d.path)));
  }

  /** The MEMORY.md view of one project's memory folder (auto or team). */
  async memoryIndex(projectSlug: string, team: boolean): Promise<MemoryIndexView> {
    const dir = memoryDir(projectSlug, team);
    const indexDoc = this.index.docs.get(`${dir}/${INDEX_FILE}`);
    return buildIndexView(projectSlug, indexDoc ? indexDoc.text : null, this.memoryFilesIn(dir), this.options.config().autoMemory);
  }

  /** A one-click fix from the MEMORY.md view: add a missing file's line, or drop a broken one. */
  fixIndex(projectSlug: string, team: boolean, fix: 'add-missing' | 'remove-broken', target: string): Promise<MemoryIndexView> {
    return this.mutate(async () => {
      const dir = memoryDir(projectSlug, team);
      if (fix === 'add-missing') {
        const doc = this.index.docs.get(`${dir}/${target}`);
        if (!doc) throw new AppFailure('not_found', `${dir}/${target} does not exist`);
        await this.editIndex(dir, (t) => (parseIndex(t).some((l) => l.target === target) ? null : addToIndex(t, target, doc.meta.title, doc.meta.description ?? '')));
      } else {
        await this.editIndex(dir, (t) => removeFromIndex(t, target));
      }
      return this.memoryIndex(projectSlug, team);
    });
  }

  /** The health panel's data (issue 4 item 5). */
  async health(): Promise<HealthReport> {
    const docs = [...this.index.docs.values()];
    const dirs = new Map<string, { projectSlug: string; team: boolean }>();
    for (const d of docs) {
      if (!isMemoryScope(d.scope) || !d.projectSlug) continue;
      const team = d.scope === 'team-memory';
      dirs.set(memoryDir(d.projectSlug, team), { projectSlug: d.projectSlug, team });
    }
    const indexes = await Promise.all(
      [...dirs.values()].map(async ({ projectSlug, team }) => ({ projectSlug, team, view: await this.memoryIndex(projectSlug, team) })),
    );
    return computeHealth({
      files: docs.map((d) => ({ meta: d.meta, text: d.hash === null || d.meta.binary ? null : d.text })),
      indexes,
      now: this.options.clock.now(),
      config: this.options.config(),
    });
  }

  private memoryFilesIn(dir: string): string[] {
    const prefix = `${dir}/`;
    const team = `${dir}/team/`;
    return [...this.index.docs.keys()]
      .filter((p) => p.startsWith(prefix) && !(dir.endsWith('/memory') && p.startsWith(team)) && p.endsWith('.md'))
      .map((p) => p.slice(prefix.length))
      .filter((p) => p !== INDEX_FILE);
  }

  private async writeLocked(rel: string, text: string, options: { baseHash?: string | null; reason?: string }): Promise<VaultFile> {
    this.assertUsable();
    const abs = this.resolve(rel);
    const location = classifyVaultPath(rel);
    if (!location) throw new AppFailure('invalid_request', `${rel} is not a vault file`);
    if (location.scope === 'transcript') throw new AppFailure('unsupported', 'Transcripts are written by the chat, not edited in the vault');
    let current: Buffer | null = null;
    try {
      current = await fs.readFile(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new AppFailure('permission_denied', `${rel} cannot be read, so it is not written over (${code})`);
    }
    if (options.baseHash !== undefined) {
      const currentHash = current ? sha256(current) : null;
      if (currentHash !== options.baseHash) {
        throw new AppFailure(
          'conflict',
          current ? `${rel} changed on disk since it was opened; nothing was written` : `${rel} no longer exists on disk; nothing was written`,
        );
      }
    }
    if (current && (current.length > this.cfg().maxFileBytes || decodeText(current) === null)) {
      throw new AppFailure('unsupported', `${rel} is binary or too large; it is not written over`);
    }
    if (current && hasHistory(location.scope)) await this.history.snapshot(rel, current, options.reason ?? 'edit');
    const hash = sha256(text);
    // A project's CLAUDE.md linking to another file in the project (AGENTS.md, say) is written through
    // and stays a link; `resolve` checked that the target is inside the project.
    const target = rel.startsWith(`${PROJECTS_PREFIX}/`) ? await fs.realpath(abs).catch(() => abs) : abs;
    this.own.expectWrite(rel, hash, current ? 'changed' : 'added');
    try {
      // SPEC §2: session notes are private to the user (file 0600, folder 0700).
      const mode = location.scope === 'session-notes' ? 0o600 : 0o644;
      await writeFileAtomic(target, text, { mode, dirMode: location.scope === 'session-notes' ? 0o700 : 0o755 });
    } catch (error) {
      this.own.cancelWrite(rel, hash);
      throw new AppFailure('io_error', `${rel} could not be written: ${(error as Error).message}`);
    }
    if (!current) await this.history.markPresent(rel);
    const doc = await this.refresh(rel);
    return this.fileView(doc!.meta, text);
  }

  /** Rewrites a MEMORY.md through `edit` (null = leave it); creates it when a line is added. */
  private async editIndex(dir: string, edit: (text: string) => string | null): Promise<void> {
    const rel = `${dir}/${INDEX_FILE}`;
    const current = await fs.readFile(path.join(this.root, ...rel.split('/')), 'utf8').catch(() => null);
    const next = edit(current ?? '');
    if (next === null || next === current) return;
    await this.writeLocked(rel, next, { baseHash: current === null ? null : sha256(current), reason: 'index-edit' });
  }

  /** Keeps the entry of a file about to be removed, so its unlink can still pair into a rename. */
  private expectOwnRemoval(rel: string): void {
    const doc = this.index.docs.get(rel);
    if (doc) this.ownRemoved.set(rel, doc);
    this.own.expectRemoval(rel);
  }

  /** Rescans one file into the catalog and index right away (own writes need no watcher delay). */
  private async refresh(rel: string): Promise<IndexedDoc | null> {
    const doc = await scanDoc(this.root, rel, this.cfg().maxFileBytes, this.projects.dirs);
    if (doc) this.index.upsert(doc);
    else this.index.remove(rel);
    this.scheduleSave();
    return doc;
  }

  private async onRawEvent(event: RawFileEvent): Promise<void> {
    const rel = event.path;
    if (!classifyVaultPath(rel)) return;
    if (event.type === 'unlink') {
      const own = this.own.consumeRemoval(rel);
      const doc = this.index.docs.get(rel) ?? (own ? this.ownRemoved.get(rel) : undefined) ?? null;
      if (own) this.ownRemoved.delete(rel);
      if (!doc && !own) return;
      this.index.remove(rel);
      this.scheduleSave();
      if (!own && doc && hasHistory(doc.scope) && doc.hash !== null && !doc.meta.binary) {
        await this.history.snapshot(rel, doc.text, 'before-external-delete').catch((error: unknown) => {
          this.options.logger.warn('vault: no snapshot before an external delete', { path: rel, error: String(error) });
        });
      }
      const timer = setTimeout(() => this.enqueue(() => this.settleUnlink(rel)), this.cfg().renameWindowMs);
      this.pendingUnlinks.set(rel, { doc, own, timer });
      return;
    }
    const before = this.index.docs.get(rel) ?? null;
    const after = await scanDoc(this.root, rel, this.cfg().maxFileBytes, this.projects.dirs);
    if (!after) return;
    const own = this.own.consumeWrite(rel, after.hash);
    const renamedFrom = this.matchUnlink(after);
    if (!own && !renamedFrom && before && before.hash === after.hash && before.meta.error === after.meta.error) {
      this.index.upsert(after);
      return;
    }
    if (!own && before && hasHistory(before.scope) && before.hash !== null && !before.meta.binary && before.hash !== after.hash) {
      // A change from outside (another editor, the agent) is snapshotted too, from what was indexed.
      await this.history.snapshot(rel, before.text, 'before-external-change');
    }
    this.index.upsert(after);
    this.scheduleSave();
    if (!before || own?.kind === 'added') await this.history.markPresent(rel);
    if (renamedFrom) {
      const pending = this.pendingUnlinks.get(renamedFrom)!;
      clearTimeout(pending.timer);
      this.pendingUnlinks.delete(renamedFrom);
      this.push({ kind: 'renamed', path: rel, from: renamedFrom, external: !(own && pending.own) });
      return;
    }
    const kind = own ? own.kind : before ? 'changed' : 'added';
    this.push({ kind, path: rel, external: !own });
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
    if (this.index.docs.has(rel)) return;
    if (!pending.own && pending.doc && hasHistory(pending.doc.scope) && pending.doc.hash !== null) {
      const last = (await this.history.timeline(rel))[0];
      if (last) await this.history.markDeleted(rel, last.hash);
    }
    this.push({ kind: 'removed', path: rel, external: !pending.own });
  }

  /** `resolveVaultPath` over the root and the open projects. */
  private resolve(rel: string): string {
    return resolveVaultPath(this.root, rel, this.projects.dirs);
  }

  private async onWatcherState(state: 'watching' | 'root-missing'): Promise<void> {
    if (state === 'root-missing') {
      this.setState('root-missing');
      return;
    }
    this.setState('ready');
    this.emitDifferences(await reconcile(this.root, this.index, this.cfg().maxFileBytes));
  }

  private emitDifferences(diffs: Difference[]): void {
    for (const d of diffs) {
      this.push({ kind: d.before && d.after ? 'changed' : d.after ? 'added' : 'removed', path: d.path, external: true });
    }
    if (diffs.length) this.scheduleSave();
  }

  private push(change: VaultChange): void {
    this.batch.push(change);
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), 10);
  }

  private flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.batch.length === 0) return;
    const changes = this.batch;
    this.batch = [];
    for (const listener of this.changeListeners) {
      try {
        listener(changes);
      } catch (error) {
        this.options.logger.warn('vault: a change listener failed', { error: String(error) });
      }
    }
  }

  /** Watcher events run one at a time, each in its own try/catch (STYLE.md). */
  private enqueue(task: () => Promise<void> | void): Promise<void> {
    const run = this.queue.then(async () => {
      try {
        await task();
      } catch (error) {
        this.options.logger.warn('vault: a file event could not be processed', { error: String(error) });
      }
    });
    this.queue = run;
    return run;
  }

  private mutate<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.mutations.then(fn, fn);
    this.mutations = run.catch(() => undefined);
    return run;
  }

  private scheduleSave(): void {
    if (!(this.options.useCache ?? true)) return;
    this.cacheDirty = true;
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.saveCache();
    }, this.options.cacheSaveDelayMs ?? 5_000);
    this.saveTimer.unref();
  }

  private async saveCache(): Promise<void> {
    this.cacheDirty = false;
    try {
      await saveSearchCache(this.root, this.index);
    } catch (error) {
      this.options.logger.warn('vault: the search cache could not be saved', { error: String(error) });
    }
  }

  private fileView(meta: VaultFileMeta, text: string): VaultFile {
    const parsed = rel2md(meta.path) ? parseMarkdown(text, isMemoryFile(meta.path, meta.scope)) : null;
    return {
      meta,
      text,
      frontmatter: parsed?.frontmatter ?? null,
      frontmatterError: parsed?.frontmatterError ?? null,
      body: parsed?.body ?? text,
      hash: sha256(text),
    };
  }

  private assertUsable(): void {
    if (this.currentState === 'root-missing') throw new AppFailure('not_found', `The vault folder ${this.root} is gone`);
  }

  private setState(state: VaultState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private cfg(): MemoryConfig['vault'] {
    return this.options.config().vault;
  }
}

const rel2md = (rel: string) => rel.endsWith('.md');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const exists = (file: string) => fs.lstat(file).then(() => true, () => false);

/** The memory folder (auto or team) a memory file lives in. */
function memoryDirOf(rel: string): string {
  const parts = rel.split('/');
  return parts[3] === 'team' && parts.length > 4 ? parts.slice(0, 4).join('/') : parts.slice(0, 3).join('/');
}
