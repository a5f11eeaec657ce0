import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseMemoryFile, type ParsedMemory } from '../../../common/memory-file/index.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import { INDEX_FILE_NAME } from './memory-paths.js';

/** One topic file of a memory folder with its parsed frontmatter (MEMORY.md excluded). */
export interface MemoryFile extends ParsedMemory {
  /** Path relative to the memory folder, with `/`. */
  relPath: string;
  absPath: string;
  mtimeMs: number;
  size: number;
  /** The whole text, or its first `maxBytes` when the scan was asked to cap reads. */
  text: string;
}

export interface ScanOptions {
  /** Read at most this many bytes of each file (recall reads a capped head; the store reads all). */
  maxBytes?: number;
  /** Keep only the newest N by mtime (docs/memory.md#recall: 200 for the manifest). */
  limit?: number;
  /**
   * The previous scan's files by relative path (same `maxBytes`): a file whose mtime and size are
   * unchanged is taken from here instead of read again. Updated in place to this scan's files.
   */
  cache?: Map<string, MemoryFile>;
}

async function walk(dir: string, rel: string, out: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const child = rel ? `${rel}/${e.name}` : e.name;
    // Symlinks are not followed: a loop or a link out of the vault must not widen the scan.
    if (e.isDirectory()) await walk(dir, child, out);
    else if (e.isFile() && e.name.endsWith('.md') && child !== INDEX_FILE_NAME) out.push(child);
  }
}

/** The file's text, or its first `maxBytes` bytes. */
export async function readHead(file: string, maxBytes: number | undefined): Promise<string> {
  if (maxBytes === undefined) return fs.readFile(file, 'utf8');
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buf, 0, maxBytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The relative paths of the folder's topic files (MEMORY.md, dot-files and symlinks left out), without a stat. */
export async function listMemoryFiles(memoryDir: string): Promise<string[]> {
  const rels: string[] = [];
  await walk(memoryDir, '', rels);
  return rels;
}

/** Every `.md` topic file under the memory folder, newest first; an unreadable file is skipped, never fatal. */
export async function scanMemoryFiles(memoryDir: string, options: ScanOptions = {}): Promise<MemoryFile[]> {
  const rels = await listMemoryFiles(memoryDir);
  const files = await Promise.all(
    rels.map(async (relPath): Promise<MemoryFile | null> => {
      const absPath = path.join(memoryDir, relPath);
      try {
        const stat = await fs.stat(absPath);
        if (!stat.isFile()) return null;
        const cached = options.cache?.get(relPath);
        if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached;
        const text = await readHead(absPath, options.maxBytes);
        return { ...parseMemoryFile(text), relPath, absPath, mtimeMs: stat.mtimeMs, size: stat.size, text };
      } catch {
        return null;
      }
    }),
  );
  const kept = files.filter((f): f is MemoryFile => f !== null).sort((a, b) => b.mtimeMs - a.mtimeMs || naturalCompare(a.relPath, b.relPath));
  if (options.cache) {
    options.cache.clear();
    for (const f of kept) options.cache.set(f.relPath, f);
  }
  return options.limit === undefined ? kept : kept.slice(0, options.limit);
}

/**
 * Manifest lines for prompts (docs/memory.md#recall): `- [type] file.md (ISO mtime): description`, the tag and
 * description left out when absent.
 */
export function formatManifest(files: MemoryFile[]): string {
  return files
    .map((f) => {
      const tag = f.type && f.type !== 'untyped' ? `[${f.type}] ` : '';
      const desc = f.description ? `: ${f.description}` : '';
      return `- ${tag}${f.relPath} (${new Date(f.mtimeMs).toISOString()})${desc}`;
    })
    .join('\n');
}
