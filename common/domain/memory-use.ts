/** How recall has used one memory (docs/memory.md#provenance-and-use). */
export interface MemoryUse {
  /** Times recall attached it to a question. */
  count: number;
  /** ISO time of the latest. */
  lastUsed: string;
  /** The latest uses, newest first, by conversation (at most 20). */
  recent: { sessionId: string; at: string }[];
}

/** Every counted memory's use, and since when Strata has counted (null: nothing counted yet). */
export interface MemoryUsage {
  since: string | null;
  /** By the memory's path relative to the vault root. */
  files: Record<string, MemoryUse>;
}
