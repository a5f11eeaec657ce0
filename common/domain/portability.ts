import type { MemoryType } from './vault.js';

/** Where imported memories came from (docs/memory-upkeep.md "Bringing memory in"). */
export type ImportSource = 'chatgpt' | 'claude' | 'other' | 'folder' | 'strata';

export const importSourceLabels: Record<ImportSource, string> = {
  chatgpt: 'ChatGPT',
  claude: 'Claude',
  other: 'another assistant',
  folder: 'a folder of notes',
  strata: 'a Strata export',
};

/** One memory of an import preview; the user edits or drops it before anything is written. */
export interface ImportItem {
  /** Stable within one preview. */
  id: string;
  fileName: string;
  name: string;
  description: string;
  type: MemoryType;
  /** The memory's text, its provenance line included. */
  body: string;
  /**
   * A file to write byte for byte (a memory file from a Strata export or a notes folder that already
   * has its frontmatter); editing the item drops it and the fields are rendered instead.
   */
  verbatim?: string;
}

export interface ImportPreview {
  source: ImportSource;
  items: ImportItem[];
  /** Lines or files that were not turned into memories, with why (shown under the preview). */
  skipped: { what: string; why: string }[];
}

export interface ImportResult {
  /** Vault paths written, in the preview's order. */
  written: string[];
}

export interface ExportedMemory {
  /** Path relative to the vault root (`projects/<slug>/memory/…`). */
  path: string;
  text: string;
}
