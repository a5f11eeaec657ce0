/**
 * Checksums and ETags of docs/sync-protocol.md, isomorphic: the caller injects the SHA-256 function (node:crypto on
 * the server and in main, WebCrypto would need an async variant), so this file runs everywhere.
 */

/** SHA-256 of bytes as lowercase hex. */
export type Sha256Hex = (data: Uint8Array) => string;

const encoder = new TextEncoder();

/** UTF-8 byte length of a string, as the entry-size limits count it. */
export function utf8Length(text: string): number {
  return encoder.encode(text).byteLength;
}

/** An entry checksum: sha256 of the entry's exact UTF-8 bytes, as `sha256:<hex>`. */
export function entryChecksum(text: string, sha256: Sha256Hex): string {
  return `sha256:${sha256(encoder.encode(text))}`;
}

/** Code-unit order, so every side sorts keys identically regardless of locale. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The repository checksum: sha256 over the sorted `key\0entryChecksum\n` lines. */
export function repositoryChecksum(entryChecksums: Iterable<[string, string]>, sha256: Sha256Hex): string {
  const lines = [...entryChecksums].sort(([a], [b]) => compareKeys(a, b)).map(([key, sum]) => `${key}\0${sum}\n`);
  return `sha256:${sha256(encoder.encode(lines.join('')))}`;
}

/** The strong, quoted ETag for a checksum (RFC 9110 §8.8.3). */
export function formatEtag(checksum: string): string {
  return `"${checksum}"`;
}

/** One entity tag from an If-Match / If-None-Match list. */
export interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** Parses an If-Match / If-None-Match header: `*`, or a comma-separated list of entity tags. */
export function parseEtagList(header: string | undefined): '*' | EntityTag[] | null {
  if (header === undefined) return null;
  const trimmed = header.trim();
  if (trimmed === '*') return '*';
  const tags: EntityTag[] = [];
  for (const match of trimmed.matchAll(/(W\/)?"([^"]*)"/g)) {
    tags.push({ weak: Boolean(match[1]), opaque: match[2] ?? '' });
  }
  return tags;
}

/** Strong comparison (RFC 9110 §8.8.3.2): both strong and identical. Used for If-Match. */
export function strongMatch(tags: '*' | EntityTag[], checksum: string): boolean {
  if (tags === '*') return true;
  return tags.some((t) => !t.weak && t.opaque === checksum);
}

/** Weak comparison (RFC 9110 §8.8.3.2): opaque tags identical. Used for If-None-Match. */
export function weakMatch(tags: '*' | EntityTag[], checksum: string): boolean {
  if (tags === '*') return true;
  return tags.some((t) => t.opaque === checksum);
}
