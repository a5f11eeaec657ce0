import type { StateCreator } from 'zustand';
import type { MemoryType, SearchHit, VaultFile, VaultFileMeta, VaultScope } from '../../../common/domain/vault';
import type { MemoryProposal } from '../../../common/domain/chat';

export type VaultSort = 'name' | 'updated' | 'size';
export interface SearchFilters {
  scope: VaultScope | null;
  type: MemoryType | null;
}
/** Where the open file's autosave stands; `failed` keeps the text on screen and retries. */
export type SaveState = { kind: 'saved' } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'failed'; message: string; retryInMs: number | null };
export type VaultPanel = 'file' | 'new' | 'index' | 'history' | 'deleted' | 'health' | 'search' | 'conflicts' | 'review' | 'portability' | 'table';

export interface VaultSlice {
  files: VaultFileMeta[];
  filesLoaded: boolean;
  sort: VaultSort;
  selectedPath: string | null;
  panel: VaultPanel;
  open: VaultFile | null;
  /** The editor's text when it differs from `open.text`. */
  draft: string | null;
  /** The file changed on disk while the user had unsaved edits: both are kept until they choose. */
  externalVersion: VaultFile | null;
  /**
   * Bumped whenever the editor's text is replaced from outside (another file, a reload, a merge):
   * the editor is recreated then, and only then (an autosave must not move the cursor).
   */
  docRevision: number;
  saveState: SaveState;
  searchQuery: string;
  /** The search filters: a scope and a memory type, null for any. */
  searchFilters: SearchFilters;
  searchHits: SearchHit[];
  /** The open MEMORY.md view's project and side. */
  indexTarget: { projectSlug: string; team: boolean } | null;
  overlay: 'switcher' | 'palette' | null;
  /** The tree's collapsed groups (`scope` or `scope/slug`), remembered across restarts. */
  treeCollapsed: string[];
  toggleTreeGroup(key: string): void;
  /** Review mode's inbox, per project. */
  proposals: Record<string, MemoryProposal[]>;
  setProposals(project: string, proposals: MemoryProposal[]): void;
  setFiles(files: VaultFileMeta[]): void;
  setSort(sort: VaultSort): void;
  select(path: string | null, panel?: VaultPanel): void;
  setPanel(panel: VaultPanel): void;
  setOpen(file: VaultFile | null): void;
  /** The open file as just saved from the editor's own text: the editor keeps its state. */
  setSaved(file: VaultFile): void;
  setSaveState(state: SaveState): void;
  setDraft(draft: string | null): void;
  setExternalVersion(file: VaultFile | null): void;
  setSearch(query: string, filters: SearchFilters, hits: SearchHit[]): void;
  setIndexTarget(target: { projectSlug: string; team: boolean } | null): void;
  setOverlay(overlay: 'switcher' | 'palette' | null): void;
  /** The Import panel's pasted answer, kept while the user goes elsewhere and comes back. */
  importDraft: string;
  setImportDraft(text: string): void;
}

export const createVaultSlice: StateCreator<VaultSlice> = (set) => ({
  files: [],
  filesLoaded: false,
  proposals: {},
  setProposals: (project, proposals) => set((s) => ({ proposals: { ...s.proposals, [project]: proposals } })),
  sort: 'name',
  selectedPath: null,
  panel: 'file',
  open: null,
  draft: null,
  externalVersion: null,
  docRevision: 0,
  saveState: { kind: 'saved' },
  searchQuery: '',
  searchFilters: { scope: null, type: null },
  searchHits: [],
  indexTarget: null,
  overlay: null,
  importDraft: '',
  setImportDraft: (importDraft) => set({ importDraft }),
  treeCollapsed: readCollapsed(),
  toggleTreeGroup: (key) =>
    set((s) => {
      const treeCollapsed = s.treeCollapsed.includes(key) ? s.treeCollapsed.filter((k) => k !== key) : [...s.treeCollapsed, key];
      writeCollapsed(treeCollapsed);
      return { treeCollapsed };
    }),
  setFiles: (files) => set({ files, filesLoaded: true }),
  setSort: (sort) => set({ sort }),
  select: (selectedPath, panel = 'file') => set({ selectedPath, panel, draft: null, externalVersion: null }),
  setPanel: (panel) => set({ panel }),
  setOpen: (open) => set((s) => ({ open, docRevision: s.docRevision + 1 })),
  setSaved: (open) => set({ open }),
  setSaveState: (saveState) => set({ saveState }),
  setDraft: (draft) => set({ draft }),
  setExternalVersion: (externalVersion) => set({ externalVersion }),
  setSearch: (searchQuery, searchFilters, searchHits) => set({ searchQuery, searchFilters, searchHits }),
  setIndexTarget: (indexTarget) => set({ indexTarget }),
  setOverlay: (overlay) => set({ overlay }),
});

const COLLAPSED_KEY = 'strata.vault.collapsed';

/** The collapsed groups as last left; a missing or damaged entry means all open. */
function readCollapsed(): string[] {
  try {
    const value: unknown = JSON.parse(globalThis.localStorage?.getItem(COLLAPSED_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((k): k is string => typeof k === 'string').slice(0, 1_000) : [];
  } catch {
    return [];
  }
}

function writeCollapsed(keys: string[]): void {
  try {
    globalThis.localStorage?.setItem(COLLAPSED_KEY, JSON.stringify(keys));
  } catch {
    // Storage full or refused: the groups stay as they are for this session only.
  }
}
