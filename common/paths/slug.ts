/**
 * docs/memory.md#where-things-live: the folder name a project's data lives under, exactly as Claude Code names it (so a vault
 * at `~/.claude` shares each project's folder with Claude Code). The path is taken in NFC, as Claude
 * Code normalizes the folder it starts in; then every UTF-16 code unit outside [A-Za-z0-9] becomes
 * `-`; a slug over 200 characters keeps 200 and appends `-` + base-36 of the absolute value of
 * `stringHash32` of the whole (NFC) path, what Claude Code's `cli.js` does under Node.
 */
export const MAX_SLUG_LENGTH = 200;

/** `h = ((h << 5) - h + code) | 0` over the UTF-16 code units, from 0: a signed 32-bit value. */
export function stringHash32(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

export function slug(realPath: string): string {
  const normalized = realPath.normalize('NFC');
  const replaced = normalized.replace(/[^A-Za-z0-9]/g, '-');
  if (replaced.length <= MAX_SLUG_LENGTH) return replaced;
  return `${replaced.slice(0, MAX_SLUG_LENGTH)}-${Math.abs(stringHash32(normalized)).toString(36)}`;
}

/** FNV-1a (32-bit) over UTF-8: only for `legacySlug`. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The slug earlier Strata versions used (FNV-1a over UTF-8 for long paths). It differs from `slug`
 * only for paths over 200 characters; a vault's folder under this name is moved to the current one
 * (`migrateLegacyProjectFolder`).
 */
export function legacySlug(realPath: string): string {
  const normalized = realPath.normalize('NFC');
  const replaced = normalized.replace(/[^A-Za-z0-9]/g, '-');
  if (replaced.length <= MAX_SLUG_LENGTH) return replaced;
  return `${replaced.slice(0, MAX_SLUG_LENGTH)}-${fnv1a32(normalized).toString(36)}`;
}
