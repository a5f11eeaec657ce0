/** What the renderer needs to know about the process serving it. */
export interface AppInfo {
  name: string;
  version: string;
  platform: string;
  /** `electron` in the desktop window, `host` in a browser tab served by `strata host`. */
  shell: 'electron' | 'host';
  vaultRoot: string;
  /** `root-missing` while the vault folder is gone (an unplugged drive, a deleted folder). */
  vaultState: VaultState;
}

export type VaultState = 'closed' | 'opening' | 'ready' | 'root-missing';

export interface VaultRootInfo {
  root: string;
  /** True when the root is the app's own data folder (no user choice recorded). */
  isDefault: boolean;
}

export interface Project {
  /** The folder's real path. */
  path: string;
  name: string;
  openedAt: string;
  /** The folder name of its memory under `projects/` (the git root's slug, so worktrees share it). */
  memorySlug: string;
}

export interface DirEntry {
  name: string;
  path: string;
  /** A `.zip` file, listed only when the chooser asked for zips too. */
  zip?: true;
}

/** One level of the folder chooser; browser tabs cannot open a native folder dialog. */
export interface DirListing {
  path: string;
  parent: string | null;
  home: string;
  entries: DirEntry[];
}

export interface CredentialStatus {
  apiKey: 'keychain' | 'environment' | 'missing';
  /** Which driver holds secrets: keytar (OS keychain), safeStorage, or memory (tests, no keyring). */
  driver: string;
}
