import { promises as fs } from 'node:fs';
import { Emitter } from '../../../common/async/event.js';
import { Sequencer } from '../../../common/async/sequencer.js';
import type { MemoryShape } from '../../../common/memory-file/index.js';
import type { MemoryConfig } from '../../../common/config.js';
import { AppFailure } from '../../../common/result.js';
import type {
  HealthFixKind,
  HealthFixResult,
  SearchHit,
  VaultChange,
  VaultFile,
  VaultFileMeta,
} from '../../../common/domain/vault.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import type { IndexedDoc, SearchQuery } from '../search/index.js';
import { SearchIndex } from '../search/index.js';
import { fileView, writeVaultFile } from './file-writer.js';
import { HistoryStore } from './history-store.js';
import { HealthFixer } from './health-fix.js';
import { MemoryIndexEdits } from './index-edits.js';
import { OwnWrites } from './own-writes.js';
import { SearchCacheSaver } from './search-cache-saver.js';
import { loadCatalog, reconcile, scanDoc } from './vault-catalog.js';
import { VaultChanges } from './vault-changes.js';
import type { VaultContext, VaultOptions } from './vault-context.js';
import { VaultEdits } from './vault-edits.js';
import { VaultWatcher } from './vault-watcher.js';
import { classifyVaultPath, resolveVaultPath } from './vault-paths.js';
import { ProjectSources } from './project-sources.js';
import { ProjectNames } from './display-names.js';
import { slug } from '../../../common/paths/slug.js';

/** `opening` until searchable, `ready` after, `root-missing` while the root folder is gone. */
export type { VaultState } from '../../../common/domain/app.js';
import type { VaultState } from '../../../common/domain/app.js';
export type { VaultOptions } from './vault-context.js';

/** How long after opening the app's vault fills Health's cache (after the first paint and search). */
const HEALTH_WARM_MS = 5_000;
/**
 * A hold on the watcher ends by itself after this long: a turn whose model never answers (a server that
 * accepts and stays silent) must not keep the vault from seeing edits until its request times out.
 */
const WATCH_HOLD_MS = 5_000;

/**
 * One vault root (docs/memory.md#vault-upkeep): the catalog of its files, their full-text index, the watcher that
 * keeps both current and reports changes, the history of memory files, and the user's own actions
 * (edit, create, rename, delete, Undo, restore). Every write is atomic and recognised by its hash.
 */
export class Vault {
  private index = new SearchIndex();
  private history: HistoryStore;
  private readonly own = new OwnWrites();
  private watcher: VaultWatcher | null = null;
  private currentState: VaultState = 'closed';
  private readonly stateChanged = new Emitter<VaultState>();
  /** Watcher events and project rescans, processed one at a time in arrival order. */
  private readonly events = new Sequencer();
  /** The vault's own writes (edit, create, rename, delete, Undo, restore), one at a time. */
  private readonly mutations = new Sequencer();
  private watching: Promise<void> = Promise.resolve();
  /** Resolves `watching` once the put-off watcher has started and caught up (or the vault closed first). */
  private watchingDone: ((started?: Promise<void>) => void) | null = null;
  /** Holds on the watcher's first scan (`holdWatching`); each is armed to end by itself once searchable. */
  private readonly watchHolds = new Set<{ arm(): void }>();
  /** The watcher runs and its catch-up pass is done: the catalog follows the files (see `catalogLive`). */
  private catalogIsLive = false;
  private closing = false;
  private warmTimer: NodeJS.Timeout | null = null;
  /** The opened projects' own instruction files (`@projects/<slug>/…`) and their watchers. */
  private readonly projects: ProjectSources;
  /** What the parts below share of this vault. */
  private readonly context: VaultContext;
  private readonly changes: VaultChanges;
  private readonly cacheSaver: SearchCacheSaver;
  private readonly indexEdits: MemoryIndexEdits;
  private readonly edits: VaultEdits;
  private readonly healthFixer: HealthFixer;
  private readonly projectNames: ProjectNames;

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
      onEvent: (event) => this.changes.onRawEvent(event),
      report: (diffs) => this.changes.emitDifferences(diffs),
    });
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the parts read the live index through it
    const vault = this;
    this.context = {
      options,
      root: options.root,
      get index() {
        return vault.index;
      },
      history: this.history,
      own: this.own,
      projectDirs: this.projects.dirs,
      cfg: () => this.cfg(),
      assertUsable: () => this.assertUsable(),
      resolve: (rel) => resolveVaultPath(this.root, rel, this.projects.dirs),
      refresh: (rel) => this.refresh(rel),
      scheduleSave: () => this.cacheSaver.schedule(),
      expectOwnRemoval: (rel) => this.changes.expectOwnRemoval(rel),
    };
    this.projectNames = new ProjectNames(options.root);
    this.changes = new VaultChanges(this.context, (task) => this.enqueue(task));
    this.cacheSaver = new SearchCacheSaver(this.context);
    const mutate = <T>(fn: () => Promise<T>) => this.mutations.run(fn);
    this.indexEdits = new MemoryIndexEdits(this.context, mutate);
    this.edits = new VaultEdits(this.context, mutate, this.indexEdits);
    this.healthFixer = new HealthFixer(this.context, mutate, () => this.indexEdits.health(), (rel) => this.edits.markReviewed(rel));
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
    // Whoever waits for the watcher from now on waits for this opening's (see `startWatchingWhenFree`).
    if (this.options.watch ?? true) this.watching = new Promise((resolve) => (this.watchingDone = resolve));
    try {
      await this.openCatalog();
    } catch (error) {
      this.watchingDone?.();
      this.watchingDone = null;
      throw error;
    }
  }

  private async openCatalog(): Promise<void> {
    const exists = await fs.stat(this.root).then((s) => s.isDirectory(), () => false);
    if (!exists) throw new AppFailure('not_found', `The vault folder ${this.root} does not exist`);
    const useCache = this.options.useCache ?? true;
    const loaded = await loadCatalog(this.root, this.cfg().maxFileBytes, this.options.logger, useCache);
    this.index = loaded.index;
    await this.enqueue(() => this.projects.sync());
    this.setState('ready');
    if (loaded.dirty && useCache) this.cacheSaver.schedule();
    if (this.options.watch ?? true) {
      this.startWatchingWhenFree();
      // The app's vault works out Health's per-file facts once it is idle, so the panel opens fast.
      this.warmTimer = setTimeout(() => void this.indexEdits.health().catch(() => undefined), HEALTH_WARM_MS);
      this.warmTimer.unref();
    }
  }

  /**
   * The opened projects (ProjectRegistry) whose own instruction files — `CLAUDE.md`, `.claude/CLAUDE.md`,
   * `.claude/rules/*.md`, `CLAUDE.local.md` (docs/memory.md#instructions) — the vault lists, indexes, watches and edits as
   * `@projects/<slug of the folder>/…`. Call again when a project is opened or forgotten; resolves
   * once the catalog holds the new set.
   */
  setProjects(projects: readonly { path: string; memorySlug?: string }[]): Promise<void> {
    this.projects.want(projects);
    const bySlug = new Map<string, string>();
    for (const p of projects) {
      bySlug.set(slug(p.path), p.path);
      if (p.memorySlug && !bySlug.has(p.memorySlug)) bySlug.set(p.memorySlug, p.path);
    }
    this.projectNames.setOpened(bySlug);
    return this.currentState === 'closed' ? Promise.resolve() : this.enqueue(() => this.projects.sync());
  }

  /**
   * Puts off the watcher's start while something that must answer fast runs: its first scan stats every
   * file, and at 10,000 of them it fills the I/O threads a chat turn's own reads wait behind
   * (docs/memory.md#recall "Reading the folder"). Until it runs, the catalog is not live and recall checks
   * each file itself; whatever changed meanwhile is caught by the catch-up pass. Returns the release
   * (calling it again does nothing); a hold not let go ends by itself after `watchHoldMs`.
   */
  holdWatching(): () => void {
    let expiry: NodeJS.Timeout | null = null;
    const hold = {
      // Counted from when the vault is searchable: an opening that takes long uses up no hold.
      arm: () => {
        expiry ??= setTimeout(release, this.options.watchHoldMs ?? WATCH_HOLD_MS);
        expiry.unref();
      },
    };
    const release = () => {
      if (!this.watchHolds.delete(hold)) return;
      if (expiry) clearTimeout(expiry);
      this.startWatchingWhenFree();
    };
    this.watchHolds.add(hold);
    if (this.currentState !== 'opening' && this.currentState !== 'closed') hold.arm();
    return release;
  }

  /**
   * The watcher starts once searchable (its own 10,000-file scan would slow the first one down) and
   * nothing holds it off; whatever changed in between is caught by one reconcile pass when it is ready.
   */
  private startWatchingWhenFree(): void {
    const done = this.watchingDone;
    if (!done || this.currentState === 'opening' || this.closing) return;
    for (const hold of this.watchHolds) hold.arm();
    if (this.watchHolds.size > 0) return;
    this.watchingDone = null;
    this.watcher = new VaultWatcher({
      root: this.root,
      writeFinishMs: this.cfg().writeFinishMs,
      logger: this.options.logger,
      factory: this.options.watcherFactory,
      onEvent: (event) => this.enqueue(() => this.changes.onRawEvent(event)),
      onState: (state) => this.enqueue(() => this.onWatcherState(state)),
    });
    const started = this.watcher
      .start()
      .then(() =>
        this.enqueue(async () => {
          this.changes.emitDifferences(await reconcile(this.root, this.index, this.cfg().maxFileBytes));
          this.catalogIsLive = true;
          // Project watchers start with the root's, once the vault is searchable.
          this.projects.startWatching();
          await this.projects.sync();
        }),
      );
    done(started);
  }

  /** Resolves once the watcher has finished its initial scan (and the catch-up pass ran). */
  whenWatching(): Promise<void> {
    return this.watching;
  }

  /** Resolves once every watcher event received so far has been processed and reported. */
  async idle(): Promise<void> {
    await this.events.whenIdle();
    this.changes.flush();
  }

  async close(): Promise<void> {
    this.closing = true;
    // A watcher still put off never starts: those waiting for it are let go.
    this.watchingDone?.();
    this.watchingDone = null;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    this.catalogIsLive = false;
    await this.watcher?.close();
    this.watcher = null;
    await this.projects.close();
    await this.events.whenIdle();
    this.changes.close();
    await this.cacheSaver.close(this.currentState !== 'root-missing');
    this.setState('closed');
  }

  /** Subscribes to batches of file changes (`vault:did-change-files`); returns the unsubscribe. */
  /**
   * Another engine of the app (the team pull) wrote or removed these files: index them now, as the
   * watcher would, instead of waiting for its event — which a busy machine delays and which a file
   * renamed into a folder created the same moment can miss. The watcher's own event later finds
   * nothing new. Paths are vault-relative.
   */
  async notice(rels: readonly string[]): Promise<void> {
    if (this.state !== 'ready') return;
    await Promise.all(
      rels.map((rel) =>
        this.enqueue(async () => {
          const exists = await fs.stat(this.resolve(rel)).then(() => true, () => false);
          await this.changes.onRawEvent({ type: exists ? 'add' : 'unlink', path: rel });
        }),
      ),
    );
  }

  onChanges(listener: (changes: VaultChange[]) => void): () => void {
    return this.changes.onDidChange(listener);
  }

  /** The vault's state moved (opening, ready, root-missing, closed). */
  readonly onState = this.stateChanged.event;

  /** The memory file shape chosen in Settings, for writers outside the vault (imports). */
  memoryShape(): MemoryShape {
    return this.options.memoryShape?.() ?? '2.1.88';
  }

  /**
   * Whether the catalog follows the files: the vault is ready and its watcher runs (without one, edits
   * made outside Strata never reach it). Recall reads memory files from the catalog only then.
   */
  get catalogLive(): boolean {
    return this.state === 'ready' && this.catalogIsLive;
  }

  /** Changes whenever a document of the catalog does: recall reuses what it took from an unchanged one. */
  get catalogRevision(): number {
    return this.index.revision;
  }

  /** The catalog's document of one file (text included), as the watcher last saw it. */
  docAt(rel: string): IndexedDoc | undefined {
    return this.index.docs.get(rel);
  }

  /** A project's name (its folder's) from its slug, as the vault's lists show it. */
  projectName(projectSlug: string): string {
    return this.projectNames.name(projectSlug);
  }

  list(): VaultFileMeta[] {
    return [...this.index.docs.values()]
      .map((d) => (d.meta.projectSlug ? { ...d.meta, projectName: this.projectNames.name(d.meta.projectSlug) } : d.meta))
      .sort((a, b) => naturalCompare(a.path, b.path));
  }

  search(query: string, options: SearchQuery = {}): SearchHit[] {
    return this.index.search(query, options);
  }

  /** A page of search results with the total count (for "show more"). */
  searchPage(query: string, options: SearchQuery & { offset?: number } = {}): { hits: SearchHit[]; total: number } {
    return this.index.searchPage(query, options);
  }

  /** The memories (own and team, not their MEMORY.md indexes) holding every word of `query`, as vault search finds them. */
  matchingMemories(query: string): string[] {
    return this.index.matchingPaths(
      query,
      (doc) => (doc.scope === 'project-memory' || doc.scope === 'team-memory') && !doc.path.endsWith('/MEMORY.md'),
    );
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
    return fileView(meta, text);
  }

  /**
   * Writes a file atomically. `baseHash` is the hash the caller's text was based on (null: the file
   * must not exist yet); a mismatch is a `conflict`, so an edit made meanwhile is never overwritten.
   */
  write(rel: string, text: string, options: { baseHash?: string | null; reason?: string } = {}): Promise<VaultFile> {
    return this.mutations.run(() => writeVaultFile(this.context, rel, text, options));
  }

  // The user's actions (vault-edits.ts) and MEMORY.md, Health and links (index-edits.ts).
  readonly createMemory: VaultEdits['createMemory'] = (input) => this.edits.createMemory(input);
  readonly markReviewed: VaultEdits['markReviewed'] = (rel) => this.edits.markReviewed(rel);
  readonly rename: VaultEdits['rename'] = (rel, newFileName) => this.edits.rename(rel, newFileName);
  readonly delete: VaultEdits['delete'] = (rel) => this.edits.delete(rel);
  readonly undoDelete: VaultEdits['undoDelete'] = (token) => this.edits.undoDelete(token);
  readonly timeline: VaultEdits['timeline'] = (rel) => this.edits.timeline(rel);
  readonly currentAuthor: VaultEdits['currentAuthor'] = (rel) => this.edits.currentAuthor(rel);
  readonly readVersion: VaultEdits['readVersion'] = (rel, hash) => this.edits.readVersion(rel, hash);
  readonly restore: VaultEdits['restore'] = (rel, hash) => this.edits.restore(rel, hash);
  readonly listDeleted: VaultEdits['listDeleted'] = () => this.edits.listDeleted();
  readonly memoryIndex: MemoryIndexEdits['memoryIndex'] = (slug, team) => this.indexEdits.memoryIndex(slug, team);
  readonly fixIndex: MemoryIndexEdits['fixIndex'] = (slug, team, fix, target) => this.indexEdits.fixIndex(slug, team, fix, target);
  readonly health: MemoryIndexEdits['health'] = () => this.indexEdits.health();
  readonly memoryLinks: MemoryIndexEdits['memoryLinks'] = (rel) => this.indexEdits.memoryLinks(rel);

  /** Fixes every Health problem of `kind`, or only those of `paths` (the problems' paths); undoable whole. */
  healthFix(kind: HealthFixKind, paths?: readonly string[]): Promise<HealthFixResult> {
    return this.healthFixer.fix(kind, paths);
  }
  readonly healthUndo: HealthFixer['undoFix'] = (token) => this.healthFixer.undoFix(token);


  /** Rescans one file into the catalog and index right away (own writes need no watcher delay). */
  private async refresh(rel: string): Promise<IndexedDoc | null> {
    const doc = await scanDoc(this.root, rel, this.cfg().maxFileBytes, this.projects.dirs);
    if (doc) this.index.upsert(doc);
    else this.index.remove(rel);
    this.cacheSaver.schedule();
    return doc;
  }

  private resolve(rel: string): string {
    return this.context.resolve(rel);
  }

  private async onWatcherState(state: 'watching' | 'root-missing'): Promise<void> {
    if (state === 'root-missing') {
      this.setState('root-missing');
      return;
    }
    this.setState('ready');
    this.changes.emitDifferences(await reconcile(this.root, this.index, this.cfg().maxFileBytes));
  }

  /** Watcher events run one at a time, each in its own try/catch (STYLE.md). */
  private enqueue(task: () => Promise<void> | void): Promise<void> {
    return this.events.run(async () => {
      try {
        await task();
      } catch (error) {
        this.options.logger.warn('vault: a file event could not be processed', { error: String(error) });
      }
    });
  }

  private assertUsable(): void {
    if (this.currentState === 'root-missing') throw new AppFailure('not_found', `The vault folder ${this.root} is gone`);
  }

  private setState(state: VaultState): void {
    if (this.currentState === state) return;
    this.currentState = state;
    this.stateChanged.fire(state);
  }

  private cfg(): MemoryConfig['vault'] {
    return this.options.config().vault;
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
