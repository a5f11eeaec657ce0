import { promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { VaultFileMeta } from '../../../common/domain/vault.js';
import { classifyVaultPath, isIgnoredRelative, isMemoryScope, toVaultPath, type VaultLocation } from './vault-paths.js';
import { memoryTypeOf, parseMarkdown, type ParsedMarkdown } from './frontmatter.js';

/** One scanned file: its metadata and, when it could be loaded as text, the text and its hash. */
export interface ScannedFile {
  meta: VaultFileMeta;
  location: VaultLocation;
  text: string | null;
  hash: string | null;
  parsed: ParsedMarkdown | null;
  /** Identity of the file on disk, used to pair an unlink with an add into a rename. */
  ino: number | null;
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** NUL bytes or invalid UTF-8: shown as binary, never opened as text (issue 4 "Bad input"). */
export function decodeText(buffer: Buffer): string | null {
  if (buffer.subarray(0, 8192).includes(0)) return null;
  try {
    return utf8.decode(buffer);
  } catch {
    return null;
  }
}

const errnoMessage = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'Broken symbolic link: its target does not exist';
    case 'ELOOP':
      return 'Symbolic link loop: not followed';
    case 'EACCES':
    case 'EPERM':
      return 'Unreadable: permission denied';
    default:
      return `Unreadable: ${code ?? (error as Error).message}`;
  }
};

function baseMeta(rel: string, location: VaultLocation, stats: Stats | null): VaultFileMeta {
  const name = rel.split('/').at(-1)!;
  return {
    path: rel,
    scope: location.scope,
    projectSlug: location.projectSlug,
    title: location.scope === 'transcript' || location.scope === 'session-notes' ? (location.sessionId ?? name) : name,
    description: null,
    type: null,
    size: stats?.size ?? 0,
    mtime: new Date(stats?.mtimeMs ?? 0).toISOString(),
    error: null,
    binary: false,
    tooLarge: false,
  };
}

/**
 * Stats and (within the size limit) reads one vault file. Never throws for the file's own problems:
 * broken links, loops, links out of the vault, unreadable, binary and oversized files come back as
 * metadata with `error`/`binary`/`tooLarge`. Null when the path is not a vault file or is gone.
 */
export async function scanFile(root: string, rel: string, maxBytes: number): Promise<ScannedFile | null> {
  const location = classifyVaultPath(rel);
  if (!location) return null;
  const abs = path.join(root, ...rel.split('/'));
  let lstat: Stats;
  try {
    lstat = await fs.lstat(abs);
  } catch {
    return null;
  }
  const fail = (message: string, stats: Stats | null): ScannedFile => ({
    meta: { ...baseMeta(rel, location, stats), error: message },
    location,
    text: null,
    hash: null,
    parsed: null,
    ino: lstat.ino,
  });
  let stats = lstat;
  if (lstat.isSymbolicLink()) {
    try {
      const target = await fs.realpath(abs);
      // A link is followed only while it stays inside the vault (issue 4 "Bad input").
      if (target !== root && !target.startsWith(root + path.sep)) return fail('Symbolic link to outside the vault: not followed', lstat);
      stats = await fs.stat(target);
    } catch (error) {
      return fail(errnoMessage(error), lstat);
    }
  }
  if (!stats.isFile()) return stats.isDirectory() ? null : fail('Not a regular file', stats);
  const meta = baseMeta(rel, location, stats);
  if (stats.size > maxBytes) {
    meta.tooLarge = true;
    return { meta, location, text: null, hash: null, parsed: null, ino: lstat.ino };
  }
  let buffer: Buffer;
  try {
    buffer = await fs.readFile(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return fail(errnoMessage(error), stats);
  }
  const text = decodeText(buffer);
  if (text === null) {
    meta.binary = true;
    return { meta, location, text: null, hash: sha256(buffer), parsed: null, ino: lstat.ino };
  }
  let parsed: ParsedMarkdown | null = null;
  if (rel.endsWith('.md')) {
    // MEMORY.md is the index, not a memory: it has no frontmatter to require.
    const isIndex = rel.endsWith('/MEMORY.md');
    parsed = parseMarkdown(text, isMemoryScope(location.scope) && !isIndex);
    meta.error = parsed.frontmatterError;
    if (parsed.frontmatter) {
      if (parsed.frontmatter.name.trim()) meta.title = parsed.frontmatter.name.trim();
      meta.description = parsed.frontmatter.description.trim() || null;
      meta.type = memoryTypeOf(parsed.frontmatter.type.trim());
    }
  }
  return { meta, location, text, hash: sha256(buffer), parsed, ino: lstat.ino };
}

/**
 * Every vault file below the root (relative paths with `/`), skipping ignored folders and never
 * descending through a symbolic link, so a loop or a link out of the vault cannot be walked.
 */
export async function walkVault(root: string): Promise<string[]> {
  const out: string[] = [];
  const visit = async (dirRel: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dirRel ? path.join(root, dirRel) : root, { withFileTypes: true });
    } catch {
      return;
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (isIgnoredRelative(rel)) continue;
      if (entry.isDirectory()) subdirs.push(rel);
      else if (classifyVaultPath(rel)) out.push(rel);
    }
    await Promise.all(subdirs.map(visit));
  };
  await visit('');
  return out.map(toVaultPath).sort();
}

/** Runs `fn` over items with at most `limit` in flight (10,000 files must not open 10,000 handles). */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
