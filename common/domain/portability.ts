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
  /**
   * What the secret scan found in the file this item would write (docs/memory-upkeep.md "Bringing memory
   * in"): set by main in a preview, never read back from the renderer (main scans again at the write).
   */
  findings?: ImportFinding[];
  /** The item with every value the scan found replaced by a marker: what "Leave the secret out" keeps. */
  withoutSecrets?: Pick<ImportItem, 'name' | 'description' | 'body' | 'verbatim'>;
}

/** The item without what a scan said of it: what the renderer sends back, and main scans afresh. */
export function bareImportItem(item: ImportItem): ImportItem {
  const { findings: _findings, withoutSecrets: _without, ...bare } = item;
  return bare;
}

/** One possible secret in an import item: what it looks like and where, never the value. */
export interface ImportFinding {
  /** The scanner rule: what "Not a secret" is recorded under (not shown to the user). */
  rule: string;
  /** What it looks like, in words ("GitHub personal access token"). */
  label: string;
  /** The part of the item it is in; `header` is the frontmatter of a file kept as it is. */
  field: 'name' | 'description' | 'text' | 'header';
  /** 1-based, within `field` (within the file for `header`). */
  line: number;
  /** The keyed hash of the value ("Not a secret" records it); absent when the list is damaged. */
  fingerprint?: string;
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
  /** Items whose memory is already in the folder (an import run again): the paths that hold them. */
  alreadyImported: string[];
  /** Items not written because the scan found a secret in them, with the findings (as in a preview). */
  heldBack: ImportItem[];
}

export interface ExportedMemory {
  /** Path relative to the vault root (`projects/<slug>/memory/…`). */
  path: string;
  text: string;
  /** The project's name as the user knows it (its folder's name), never its slug. */
  project: string;
}
