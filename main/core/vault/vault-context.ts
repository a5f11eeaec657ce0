import type { MemoryConfig } from '../../../common/config.js';
import type { MemoryShape } from '../../../common/memory-file/index.js';
import type { Clock, Logger } from '../ports.js';
import type { IndexedDoc, SearchIndex } from '../search/index.js';
import type { HistoryStore } from './history-store.js';
import type { OwnWrites } from './own-writes.js';
import type { WatcherFactory } from './vault-watcher.js';

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
  /** The longest one `holdWatching` puts the watcher off, let go or not, counted from when the vault is searchable (default 5 s). */
  watchHoldMs?: number;
  /** Delay before the cache is written after a change (default 5 s). */
  cacheSaveDelayMs?: number;
  /** The memory shape chosen in Settings, for memories the user creates (default the 2.1.88 shape). */
  memoryShape?: () => MemoryShape;
}

/** What the vault's parts (change feed, user edits, index edits) share of the one `Vault`. */
export interface VaultContext {
  readonly options: VaultOptions;
  readonly root: string;
  /** The current catalog and full-text index (replaced when the vault is reopened). */
  readonly index: SearchIndex;
  readonly history: HistoryStore;
  readonly own: OwnWrites;
  /** The open projects' folders by slug (`@projects/<slug>/…`). */
  readonly projectDirs: Map<string, string>;
  cfg(): MemoryConfig['vault'];
  assertUsable(): void;
  /** `resolveVaultPath` over the root and the open projects. */
  resolve(rel: string): string;
  /** Rescans one file into the catalog and index right away (own writes need no watcher delay). */
  refresh(rel: string): Promise<IndexedDoc | null>;
  /** Marks the search cache dirty and schedules its saving. */
  scheduleSave(): void;
  /** Keeps the entry of a file about to be removed, so its unlink can still pair into a rename. */
  expectOwnRemoval(rel: string): void;
}
