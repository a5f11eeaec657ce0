/** The vault engine's public face (docs/memory.md#vault-upkeep): one `Vault` per root, built by the composition root. */
export { Vault, type VaultOptions, type VaultState } from './vault.js';
export { classifyVaultPath, isMemoryScope, memoryDir, type VaultLocation } from './vault-paths.js';
export { chokidarFactory, type FileWatcher, type WatcherFactory } from './vault-watcher.js';
export { HistoryStore } from './history-store.js';
export { computeHealth } from './health.js';
export { addLinesThatFit } from './health-fix.js';
export { parseIndex, buildIndexView } from './memory-index.js';
export { parseMarkdown } from './markdown-view.js';
export { memoryTypeOf } from '../../../common/memory-file/index.js';
export type { SearchQuery } from '../search/index.js';
export { noteChangeAuthor } from './change-authors.js';
export { AUTOSAVE_REASON } from './history-coalesce.js';
export { nearDuplicates } from './near-duplicates.js';
export { VaultRootPointer, defaultAppDataDir } from '../vault-root.js';
export { STATE_DIR } from './vault-paths.js';
export { slicePause } from './file-scan.js';
