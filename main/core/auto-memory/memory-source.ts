import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import type { IndexedDoc } from '../search/index.js';
import { listMemoryFiles, readHead, type MemoryFile } from './memory-files.js';

/**
 * Where recall gets a memory folder's files (docs/memory.md#recall "Reading the folder"). The vault already
 * holds every memory's text in its catalog, kept current by its watcher: recall takes them from there
 * instead of stat-ing and reading the folder each turn — at 10,000 memories that was most of a first
 * answer's wait and 200 ms of every turn. Null means "not from here" (vault still opening or not
 * watching, folder outside it): recall scans the folder itself.
 */
export interface MemoryFileSource {
  filesIn(memoryDir: string): Promise<MemoryFile[] | null>;
}

/** The part of the vault this needs. */
export interface MemoryDocs {
  readonly root: string;
  readonly catalogLive: boolean;
  docAt(rel: string): IndexedDoc | undefined;
}

/** docs/memory.md#recall: the head of each memory recall ranks and attaches. */
export const RECALL_READ_CHARS = 16 * 1024;

interface Folder {
  files: Map<string, MemoryFile>;
  /** The last answer, newest first; reused while nothing in the folder changed. */
  sorted: MemoryFile[] | null;
}

const head = (text: string) => (text.length > RECALL_READ_CHARS ? text.slice(0, RECALL_READ_CHARS) : text);

export class VaultMemorySource implements MemoryFileSource {
  private readonly folders = new Map<string, Folder>();
  private roots: string[] | null = null;
  /** Files parsed afresh since this source was made (each new or changed version once). */
  reads = 0;

  constructor(private readonly vault: MemoryDocs) {}

  async filesIn(memoryDir: string): Promise<MemoryFile[] | null> {
    if (!this.vault.catalogLive) return null;
    const relDir = this.relativeDir(memoryDir);
    if (relDir === null) return null;
    let folder = this.folders.get(memoryDir);
    if (!folder) this.folders.set(memoryDir, (folder = { files: new Map(), sorted: null }));
    // The names come from the folder (one readdir, no stat): a file written a moment ago, before the
    // watcher reported it, is read from disk; one deleted is gone at once.
    const rels = await listMemoryFiles(memoryDir);
    let changed = rels.length !== folder.files.size;
    const next = new Map<string, MemoryFile>();
    const fromDisk: string[] = [];
    for (const rel of rels) {
      const kept = folder.files.get(rel);
      const doc = this.vault.docAt(`${relDir}/${rel}`);
      // Over the vault's size cap a document has no text: its head is read from disk.
      if (!doc || (doc.text === '' && doc.size > 0)) {
        fromDisk.push(rel);
        continue;
      }
      if (kept && kept.mtimeMs === doc.mtimeMs && kept.size === doc.size) {
        next.set(rel, kept);
        continue;
      }
      changed = true;
      next.set(rel, this.parse(memoryDir, rel, head(doc.text), doc.mtimeMs, doc.size));
    }
    for (const rel of fromDisk) {
      const file = await this.fromDisk(memoryDir, rel, folder.files.get(rel));
      if (file !== folder.files.get(rel)) changed = true;
      if (file) next.set(rel, file);
    }
    if (!changed && folder.sorted) return folder.sorted;
    folder.files = next;
    folder.sorted = [...next.values()].sort((a, b) => b.mtimeMs - a.mtimeMs || naturalCompare(a.relPath, b.relPath));
    return folder.sorted;
  }

  private parse(memoryDir: string, rel: string, text: string, mtimeMs: number, size: number): MemoryFile {
    this.reads++;
    return { ...parseMemoryFile(text), relPath: rel, absPath: path.join(memoryDir, ...rel.split('/')), mtimeMs, size, text };
  }

  /** A file the catalog does not hold (yet): stat, and read its head unless it is the version kept. */
  private async fromDisk(memoryDir: string, rel: string, kept: MemoryFile | undefined): Promise<MemoryFile | null> {
    const abs = path.join(memoryDir, ...rel.split('/'));
    const stat = await fs.stat(abs).catch(() => null);
    if (!stat?.isFile()) return null;
    if (kept && kept.mtimeMs === stat.mtimeMs && kept.size === stat.size) return kept;
    const text = await readHead(abs, RECALL_READ_CHARS).catch(() => null);
    return text === null ? null : this.parse(memoryDir, rel, head(text), stat.mtimeMs, stat.size);
  }

  /** `memoryDir` relative to the vault root (as given or its real path), or null when outside it. */
  private relativeDir(memoryDir: string): string | null {
    this.roots ??= [...new Set([this.vault.root, safeRealpath(this.vault.root)])];
    for (const root of this.roots) {
      const rel = path.relative(root, memoryDir);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    }
    return null;
  }
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
