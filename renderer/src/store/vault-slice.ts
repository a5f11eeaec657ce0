import type { StateCreator } from 'zustand';
import type { MemoryType, SearchHit, VaultFile, VaultFileMeta, VaultScope } from '../../../common/domain/vault';
import type { MemoryProposal } from '../../../common/domain/chat';
import type { StoreState } from './index';

export type VaultSort = 'name' | 'updated' | 'size';
export interface SearchFilters {
  scope: VaultScope | null;
  type: MemoryType | null;
}
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
  searchQuery: string;
  /** The search filters: a scope and a memory type, null for any. */
  searchFilters: SearchFilters;
  searchHits: SearchHit[];
  /** The open MEMORY.md view's project and side. */
  indexTarget: { projectSlug: string; team: boolean } | null;
  overlay: 'switcher' | 'palette' | null;
  /** Review mode's inbox, per project. */
  proposals: Record<string, MemoryProposal[]>;
  setProposals(project: string, proposals: MemoryProposal[]): void;
  setFiles(files: VaultFileMeta[]): void;
  setSort(sort: VaultSort): void;
  select(path: string | null, panel?: VaultPanel): void;
  setPanel(panel: VaultPanel): void;
  setOpen(file: VaultFile | null): void;
  setDraft(draft: string | null): void;
  setExternalVersion(file: VaultFile | null): void;
  setSearch(query: string, filters: SearchFilters, hits: SearchHit[]): void;
  setIndexTarget(target: { projectSlug: string; team: boolean } | null): void;
  setOverlay(overlay: 'switcher' | 'palette' | null): void;
}

export const createVaultSlice: StateCreator<StoreState, [], [], VaultSlice> = (set) => ({
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
  searchQuery: '',
  searchFilters: { scope: null, type: null },
  searchHits: [],
  indexTarget: null,
  overlay: null,
  setFiles: (files) => set({ files, filesLoaded: true }),
  setSort: (sort) => set({ sort }),
  select: (selectedPath, panel = 'file') => set({ selectedPath, panel, draft: null, externalVersion: null }),
  setPanel: (panel) => set({ panel }),
  setOpen: (open) => set({ open }),
  setDraft: (draft) => set({ draft }),
  setExternalVersion: (externalVersion) => set({ externalVersion }),
  setSearch: (searchQuery, searchFilters, searchHits) => set({ searchQuery, searchFilters, searchHits }),
  setIndexTarget: (indexTarget) => set({ indexTarget }),
  setOverlay: (overlay) => set({ overlay }),
});
