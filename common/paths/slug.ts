/**
 * SPEC §0: the folder name a project's data lives under. Every character outside [A-Za-z0-9] becomes
 * `-`; a slug over 200 characters keeps 200 and appends `-` + base-36 FNV-1a (32-bit) of the whole path.
 */
export const MAX_SLUG_LENGTH = 200;

export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

export function slug(realPath: string): string {
  const normalized = realPath.normalize('NFC');
  const replaced = normalized.replace(/[^A-Za-z0-9]/g, '-');
  if (replaced.length <= MAX_SLUG_LENGTH) return replaced;
  return `${replaced.slice(0, MAX_SLUG_LENGTH)}-${fnv1a32(normalized).toString(36)}`;
}
