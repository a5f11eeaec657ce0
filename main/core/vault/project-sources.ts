import { promises as fs } from 'node:fs';
import type { Logger } from '../ports.js';
import type { SearchIndex } from '../search/index.js';
import { slug } from '../paths/index.js';
import { listProjectInstructions } from './file-scan.js';
import { reconcile, type Difference } from './vault-catalog.js';
import { isIgnoredInProject, PROJECTS_PREFIX } from './vault-paths.js';
import { VaultWatcher, type RawFileEvent, type WatcherFactory } from './vault-watcher.js';

export interface ProjectSourcesOptions {
  /** The vault root. */
  root: string;
  logger: Logger;
  factory?: WatcherFactory;
  writeFinishMs: () => number;
  maxBytes: () => number;
  /** The vault's current catalog and index. */
  index: () => SearchIndex;
  /** The vault's event queue: a project watcher's events run in it like the root's. */
  enqueue: (task: () => Promise<void>) => Promise<void>;
  /** A project file event, its path already `@projects/<slug>/…`. */
  onEvent: (event: RawFileEvent) => Promise<void>;
  /** What a pass found different, reported as external changes. */
  report: (diffs: Difference[]) => void;
}

/**
 * The opened projects whose own instruction files the vault holds as `@projects/<slug of the folder>/…`
 * (docs/architecture.md#data-on-disk, docs/memory.md#instructions), each with a second watcher limited to those files. Every
 * method runs in the vault's event queue.
 */
export class ProjectSources {
  /** slug → real folder: what `@projects/<slug>/…` resolves with (vault-paths.ts `placeOf`). */
  readonly dirs = new Map<string, string>();
  private wanted = new Map<string, string>();
  private readonly watchers = new Map<string, VaultWatcher>();
  private watching = false;

  constructor(private readonly o: ProjectSourcesOptions) {}

  /** Records the opened projects (the first of two folders with one slug wins); `sync` applies it. */
  want(projects: readonly { path: string }[]): void {
    const wanted = new Map<string, string>();
    for (const p of projects) if (!wanted.has(slug(p.path))) wanted.set(slug(p.path), p.path);
    this.wanted = wanted;
  }

  /** From now on each project is watched too (the vault calls it once its root watcher is ready). */
  startWatching(): void {
    this.watching = true;
  }

  /** Brings the catalog (and the watchers) in line with the wanted projects. */
  async sync(): Promise<void> {
    const wanted = new Map<string, string>();
    for (const [name, dir] of this.wanted) wanted.set(name, await fs.realpath(dir).catch(() => dir));
    for (const [name, dir] of [...this.dirs]) {
      if (wanted.get(name) === dir) continue;
      this.dirs.delete(name);
      const watcher = this.watchers.get(name);
      this.watchers.delete(name);
      await watcher?.close();
    }
    for (const [name, dir] of wanted) {
      this.dirs.set(name, dir);
      if (this.watching && !this.watchers.has(name)) await this.watch(name, dir);
    }
    // Projects no longer open leave the catalog, including any the search cache still held.
    const closed = (rel: string) => rel.startsWith(`${PROJECTS_PREFIX}/`) && !this.dirs.has(rel.split('/')[1]!);
    this.o.report(await reconcile(this.o.root, this.o.index(), this.o.maxBytes(), [], { owns: closed, projects: this.dirs }));
    for (const name of this.dirs.keys()) await this.rescan(name);
  }

  async close(): Promise<void> {
    this.watching = false;
    await Promise.all([...this.watchers.values()].map((w) => w.close()));
    this.watchers.clear();
  }

  /** A second watcher, over one project folder, limited to its instruction files (depth 2). */
  private async watch(name: string, dir: string): Promise<void> {
    const prefix = `${PROJECTS_PREFIX}/${name}/`;
    const watcher = new VaultWatcher({
      root: dir,
      writeFinishMs: this.o.writeFinishMs(),
      logger: this.o.logger,
      factory: this.o.factory,
      ignored: isIgnoredInProject,
      depth: 2,
      onEvent: (event) => void this.o.enqueue(() => this.o.onEvent({ ...event, path: `${prefix}${event.path}` })),
      // A project folder that goes away takes its files out of the catalog; the vault stays usable.
      onState: () => void this.o.enqueue(() => this.rescan(name)),
    });
    this.watchers.set(name, watcher);
    await watcher.start();
  }

  private async rescan(name: string): Promise<void> {
    const dir = this.dirs.get(name);
    if (!dir) return;
    const prefix = `${PROJECTS_PREFIX}/${name}/`;
    const rels = listProjectInstructions(dir).map((inner) => `${prefix}${inner}`);
    const scope = { owns: (rel: string) => rel.startsWith(prefix), projects: this.dirs };
    this.o.report(await reconcile(this.o.root, this.o.index(), this.o.maxBytes(), rels, scope));
  }
}
