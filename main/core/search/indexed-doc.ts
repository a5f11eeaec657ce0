import type { VaultFileMeta, VaultScope } from '../../../common/domain/vault.js';

/**
 * One listed file: its metadata, what the search shows, and the text it was indexed from. The index's
 * documents double as the vault's catalog, so the cache restores both at once.
 */
export interface IndexedDoc {
  meta: VaultFileMeta;
  /** sha256 of the file's bytes when read; null when it could not be read. */
  hash: string | null;
  ino: number | null;
  path: string;
  scope: VaultScope;
  projectSlug: string | null;
  type: string | null;
  title: string;
  /** The indexed text: the file's text, or a transcript's user/assistant lines ('' when not loaded). */
  text: string;
  /** For transcripts: the file line of each text line (see transcript-text.ts). */
  lineMap?: number[];
  /** The file's identity when indexed, to tell a stale cache entry (index-cache.ts). */
  mtimeMs: number;
  size: number;
}
