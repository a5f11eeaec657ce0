import { promises as fs, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import type { Event } from '../../../common/async/event.js';
import type { VaultState } from '../../../common/domain/app.js';
import type { IndexedDoc } from '../search/index.js';
import { slicePause } from '../vault/index.js';
import { listMemoryFiles, readHead, type MemoryFile } from './memory-files.js';

/**
 * Where recall gets a memory folder's files (docs/memory.md#recall "Reading the folder"). The vault already
 * holds every memory's text in its catalog, kept current by its watcher: recall takes them from there
 * instead of stat-ing and reading the folder each turn — at 10,000 memories that was most of a first
 * answer's wait and 200 ms of every turn. While the vault is still opening, recall waits for its catalog
 * rather than read every file a second time beside it; once ready but before its watcher runs, each
 * file is checked against the disk (one stat) and read again only when it changed. Null means "not from
 * here" (the vault closed or its folder missing, a folder outside it): recall scans the folder itself.
 */
export interface MemoryFileSource {
  filesIn(memoryDir: string, signal?: AbortSignal, options?: FilesInOptions): Promise<MemoryFile[] | null>;
  /** Puts off the source's own full scan (the vault watcher's first one) until the release is called. */
  holdScan?(): () => void;
}

/** How recall's warm-up asks (memory-recall.ts `warm`): the turn after it asks again, plainly. */
export interface FilesInOptions {
  /** While it says so, yield to the event loop every few milliseconds while parsing. */
  sliced?: () => boolean;
  /**
   * Take the catalog as it is, without checking each file against the disk before the watcher runs: only
   * for building ahead. What this returns is never reused unchecked — every later call checks again.
   */
  unchecked?: boolean;
}

/** The part of the vault this needs. */
export interface MemoryDocs {
  readonly root: string;
  readonly state: VaultState;
  readonly onState: Event<VaultState>;
  readonly catalogLive: boolean;
  readonly catalogRevision: number;
  docAt(rel: string): IndexedDoc | undefined;
  holdWatching(): () => void;
}

/** docs/memory.md#recall: the head of each memory recall ranks and attaches. */
export const RECALL_READ_CHARS = 16 * 1024;

interface Folder {
  files: Map<string, MemoryFile>;
  /** The last answer, newest first; reused while nothing in the folder changed. */
  sorted: MemoryFile[] | null;
  /**
   * What the last answer was made from, when all of it came from a live catalog: the folder's names and
   * the catalog's revision. The same names and revision give the same answer without a look at each file.
   */
  madeFrom: { rels: string[]; revision: number } | null;
}

const head = (text: string) => (text.length > RECALL_READ_CHARS ? text.slice(0, RECALL_READ_CHARS) : text);

export class VaultMemorySource implements MemoryFileSource {
  private readonly folders = new Map<string, Folder>();
  private roots: string[] | null = null;
  /** Files parsed afresh since this source was made (each new or changed version once). */
  reads = 0;

  constructor(private readonly vault: MemoryDocs) {}

  holdScan(): () => void {
    return this.vault.holdWatching();
  }

  async filesIn(memoryDir: string, signal?: AbortSignal, options: FilesInOptions = {}): Promise<MemoryFile[] | null> {
    await this.opened(signal);
    if (this.vault.state !== 'ready' || signal?.aborted) return null;
    const relDir = this.relativeDir(memoryDir);
    if (relDir === null) return null;
    let folder = this.folders.get(memoryDir);
    if (!folder) this.folders.set(memoryDir, (folder = { files: new Map(), sorted: null, madeFrom: null }));
    // The names come from the folder (one readdir, no stat): a file written a moment ago, before the
    // watcher reported it, is read from disk; one deleted is gone at once.
    const revision = this.vault.catalogRevision;
    const live = this.vault.catalogLive;
    const rels = await listMemoryFiles(memoryDir);
    const made = folder.madeFrom;
    if (live && folder.sorted && made?.revision === revision && sameNames(made.rels, rels)) return folder.sorted;
    // Before the watcher runs, an edit made since the vault read a file is not in the catalog yet.
    const changed = live || options.unchecked ? null : await changedOnDisk(memoryDir, rels, (rel) => this.vault.docAt(`${relDir}/${rel}`));
    let differs = rels.length !== folder.files.size;
    const next = new Map<string, MemoryFile>();
    const fromDisk: string[] = [];
    const sliced = options.sliced ?? (() => false);
    const pause = slicePause();
    for (const rel of rels) {
      const paused = sliced() ? pause() : null;
      if (paused) await paused;
      const kept = folder.files.get(rel);
      const doc = this.vault.docAt(`${relDir}/${rel}`);
      // Over the vault's size cap a document has no text: its head is read from disk.
      if (!doc || (doc.text === '' && doc.size > 0) || changed?.has(rel)) {
        fromDisk.push(rel);
        continue;
      }
      if (kept && kept.mtimeMs === doc.mtimeMs && kept.size === doc.size) {
        next.set(rel, kept);
        continue;
      }
      differs = true;
      next.set(rel, this.parse(memoryDir, rel, head(doc.text), doc.mtimeMs, doc.size));
    }
    for (const rel of fromDisk) {
      const file = await this.fromDisk(memoryDir, rel, folder.files.get(rel));
      if (file !== folder.files.get(rel)) differs = true;
      if (file) next.set(rel, file);
    }
    // A file read from disk is checked again next turn, until the catalog holds it.
    folder.madeFrom = live && fromDisk.length === 0 && !options.unchecked ? { rels, revision } : null;
    if (!differs && folder.sorted) return folder.sorted;
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

  /** Resolves once the vault is no longer opening (or the turn was stopped). */
  private opened(signal?: AbortSignal): Promise<void> {
    if (this.vault.state !== 'opening' || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        off();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const off = this.vault.onState((state) => state !== 'opening' && done());
      signal?.addEventListener('abort', done, { once: true });
    });
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

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The files whose size or mtime on disk differ from the catalog's version of them: one stat each, taken
 * synchronously in slices that yield to the event loop (`slicePause`). 10,000 stats that way take ~35 ms;
 * as 10,000 parallel promises they took 120–200 ms, most of it in the promises themselves, which the first
 * answer waited on.
 */
async function changedOnDisk(memoryDir: string, rels: readonly string[], docOf: (rel: string) => IndexedDoc | undefined): Promise<Set<string>> {
  const out = new Set<string>();
  const pause = slicePause();
  for (const rel of rels) {
    const paused = pause();
    if (paused) await paused;
    const doc = docOf(rel);
    if (!doc) continue;
    const stat = statOrNull(path.join(memoryDir, ...rel.split('/')));
    if (!stat || stat.size !== doc.size || Math.floor(stat.mtimeMs) !== Math.floor(doc.mtimeMs)) out.add(rel);
  }
  return out;
}

/** Gone or unreadable (EACCES, ELOOP…): either way the file is read again, which says what it is. */
function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch {
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
