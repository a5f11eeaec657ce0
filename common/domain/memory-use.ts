/** How recall has used one memory (docs/memory.md#provenance-and-use). */
export interface MemoryUse {
  /** Times recall attached it to a question. */
  count: number;
  /** ISO time of the latest. */
  lastUsed: string;
  /** The latest uses, newest first, by conversation (at most 20). */
  recent: { sessionId: string; at: string }[];
}
