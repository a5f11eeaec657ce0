/** One change of a consolidation changeset, as the Inbox shows it (docs/memory-upkeep.md). */
export interface ConsolidationItem {
  id: string;
  /** Path relative to the vault root. */
  path: string;
  action: 'created' | 'updated' | 'deleted';
  /** The memory's name (its frontmatter `name`), or "The memory index" for MEMORY.md. */
  title: string;
  /** The pass's one-line reason. */
  reason: string;
  /** The file before and after the change; null where it does not exist (created, deleted). */
  before: string | null;
  after: string | null;
  status: 'pending' | 'applied' | 'rejected' | 'undone';
}

/** One consolidation pass's proposals for one memory folder. */
export interface ConsolidationChangeset {
  id: string;
  createdAt: string;
  items: ConsolidationItem[];
}
