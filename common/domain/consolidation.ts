/** One change of a consolidation changeset, as the Inbox shows it (docs/memory-upkeep.md). */
export interface ConsolidationItem {
  id: string;
  /** Path relative to the vault root. */
  path: string;
  action: 'created' | 'updated' | 'deleted';
  /** The pass's one-line reason. */
  reason: string;
  /** Unified diff of the file, before → after. */
  diff: string;
  status: 'pending' | 'applied' | 'rejected' | 'undone';
}

/** One consolidation pass's proposals for one memory folder. */
export interface ConsolidationChangeset {
  id: string;
  createdAt: string;
  items: ConsolidationItem[];
}
