import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { watch, type ChokidarOptions } from 'chokidar';
import type { Logger } from '../ports.js';
import { isIgnoredRelative, toVaultPath } from './vault-paths.js';

/** The part of a chokidar `FSWatcher` the vault uses, so a test can hand in a watcher that fails. */
export interface FileWatcher {
  on(event: 'add' | 'change' | 'unlink', listener: (file: string, stats?: Stats) => void): unknown;
  on(event: 'unlinkDir' | 'addDir', listener: (dir: string) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  close(): Promise<void>;
  /** The files and folders it tracks, by folder (chokidar's); without it a new folder's catch-up reports every file. */
  getWatched?(): Record<string, string[]>;
}

/** Builds a watcher over one root (docs/architecture.md: engines take a watcher factory). */
export type WatcherFactory = (root: string, options: ChokidarOptions) => FileWatcher;

export const chokidarFactory: WatcherFactory = (root, options) => watch(root, options);

/** A file event, relative to the root with `/`. */
export interface RawFileEvent {
  type: 'add' | 'change' | 'unlink';
  path: string;
  stats?: Stats;
}

/** `watching` once ready (again), `root-missing` when the root folder disappeared. */
export type WatcherState = 'watching' | 'root-missing';

export interface VaultWatcherOptions {
  root: string;
  writeFinishMs: number;
  logger: Logger;
  factory?: WatcherFactory;
  onEvent: (event: RawFileEvent) => void;
  onState: (state: WatcherState) => void;
  /** How often a missing root is looked for again; 1 s by default. */
  rootCheckMs?: number;
  /** Which paths (relative to the root) are not watched; default: the vault's `isIgnoredRelative`. */
  ignored?: (rel: string) => boolean;
  /** How many folder levels below the root are watched; default: all. */
  depth?: number;
}

const POLLING_CODES = new Set(['ENOSPC', 'EMFILE']);

/**
 * chokidar over one vault root with the discipline of Bruno's collection watcher (STYLE.md):
 * awaitWriteFinish, an `ignored` function, a polling fallback when the OS runs out of inotify watches
 * or file handles, a try/catch per event, and a root that vanishes reported as a state, not a crash.
 */
export class VaultWatcher {
  private watcher: FileWatcher | null = null;
  private polling = false;
  private state: WatcherState = 'watching';
  private rootTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly factory: WatcherFactory;
  /** New folders waiting for their catch-up listing, with its timers. */
  private readonly catchUps = new Map<string, NodeJS.Timeout[]>();

  constructor(private readonly options: VaultWatcherOptions) {
    this.factory = options.factory ?? chokidarFactory;
  }

  /**
   * Starts watching; resolves once the initial scan is done (chokidar `ready`). A root missing at the
   * start is `root-missing` until it appears (chokidar would not see it being created).
   */
  async start(): Promise<void> {
    if (await isFolder(this.options.root)) await this.open();
    else this.state = 'root-missing';
    this.rootTimer = setInterval(() => void this.checkRoot(), this.options.rootCheckMs ?? 1_000);
    this.rootTimer.unref();
  }

  get usingPolling(): boolean {
    return this.polling;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rootTimer) clearInterval(this.rootTimer);
    for (const timers of this.catchUps.values()) timers.forEach(clearTimeout);
    this.catchUps.clear();
    await this.watcher?.close();
    this.watcher = null;
  }

  private open(): Promise<void> {
    const { root, writeFinishMs, depth } = this.options;
    const isIgnored = this.options.ignored ?? isIgnoredRelative;
    const ignored = (file: string) => isIgnored(path.relative(root, file));
    const watcher = this.factory(root, {
      ignored,
      ...(depth === undefined ? {} : { depth }),
      ignoreInitial: true,
      // Never follow a link: a loop or a link out of the vault must not be walked (docs/memory.md#vault-upkeep).
      followSymlinks: false,
      alwaysStat: true,
      usePolling: this.polling,
      interval: 500,
      binaryInterval: 1_000,
      awaitWriteFinish: { stabilityThreshold: writeFinishMs, pollInterval: Math.max(10, Math.round(writeFinishMs / 8)) },
      ignorePermissionErrors: true,
    });
    this.watcher = watcher;
    const forward = (type: RawFileEvent['type']) => (file: string, stats?: Stats) => {
      try {
        const rel = toVaultPath(path.relative(root, file));
        if (!rel || rel.startsWith('..')) return;
        this.options.onEvent({ type, path: rel, stats });
      } catch (error) {
        // One bad file never stops the watcher (STYLE.md).
        this.options.logger.warn('vault watcher: event failed', { file, error: String(error) });
      }
    };
    watcher.on('add', forward('add'));
    watcher.on('change', forward('change'));
    watcher.on('unlink', forward('unlink'));
    watcher.on('addDir', (dir) => this.catchUpLater(watcher, dir, forward('add'), ignored));
    watcher.on('unlinkDir', (dir) => {
      if (path.resolve(dir) === root) void this.checkRoot();
    });
    return new Promise<void>((resolve) => {
      watcher.on('ready', () => resolve());
      watcher.on('error', (error) => void this.onError(error, resolve));
    });
  }

  /**
   * chokidar lists a new folder and only then watches it: a file renamed into the folder in between (a
   * team pull's temp + rename into a teammate's folders, made the same moment) gets no event until
   * something else happens in that folder (test/main/core/vault/watcher-new-folder.test.ts). So a new
   * folder is listed again once it is surely watched, and each file chokidar does not track is
   * reported as added (an add of a file the vault already holds unchanged is a no-op).
   */
  private catchUpLater(watcher: FileWatcher, dir: string, add: (file: string, stats?: Stats) => void, ignored: (file: string) => boolean): void {
    if (this.closed || this.catchUps.has(dir)) return;
    const timers = [this.options.writeFinishMs + 100, 2_000].map((delay, i, all) => {
      const timer = setTimeout(() => {
        if (i === all.length - 1) this.catchUps.delete(dir);
        if (this.watcher === watcher && !this.closed) void this.catchUp(watcher, dir, add, ignored);
      }, delay);
      timer.unref();
      return timer;
    });
    this.catchUps.set(dir, timers);
  }

  private async catchUp(watcher: FileWatcher, dir: string, add: (file: string, stats?: Stats) => void, ignored: (file: string) => boolean): Promise<void> {
    const { root, depth } = this.options;
    const tracked = watcher.getWatched?.() ?? {};
    const walk = async (folder: string): Promise<void> => {
      const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        const full = path.join(folder, entry.name);
        if (this.closed || ignored(full)) continue;
        // chokidar's depth: how many folder levels below the root it watches.
        const level = path.relative(root, full).split(path.sep).length - 1;
        if (entry.isDirectory() && (depth === undefined || level < depth)) await walk(full);
        else if (entry.isFile() && !tracked[folder]?.includes(entry.name) && (depth === undefined || level <= depth)) {
          const stats = await fs.lstat(full).catch(() => undefined);
          if (stats?.isFile() && !this.closed) add(full, stats);
        }
      }
    };
    await walk(dir);
  }

  private async onError(error: unknown, resolveReady: () => void): Promise<void> {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && POLLING_CODES.has(code) && !this.polling && !this.closed) {
      this.options.logger.warn('vault watcher: out of watches or handles; falling back to polling', { code });
      this.polling = true;
      const old = this.watcher;
      this.watcher = null;
      await old?.close().catch(() => undefined);
      await this.open();
      resolveReady();
      return;
    }
    this.options.logger.warn('vault watcher: error', { code, error: String(error) });
    void this.checkRoot();
  }

  private async checkRoot(): Promise<void> {
    if (this.closed) return;
    const exists = await isFolder(this.options.root);
    if (!exists && this.state === 'watching') {
      this.state = 'root-missing';
      const old = this.watcher;
      this.watcher = null;
      await old?.close().catch(() => undefined);
      this.options.onState('root-missing');
    } else if (exists && this.state === 'root-missing') {
      this.state = 'watching';
      await this.open();
      if (!this.closed) this.options.onState('watching');
    }
  }
}

const isFolder = (dir: string): Promise<boolean> =>
  fs.stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
