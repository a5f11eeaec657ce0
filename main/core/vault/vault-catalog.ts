import { lstatSync } from 'node:fs';
import type { Logger } from '../ports.js';
import { SearchIndex, type IndexedDoc } from '../search/index.js';
import { loadSearchCache } from '../search/index.js';
import { transcriptText } from '../search/index.js';
import { forEachSlice, scanFileSync, walkVault, type ScannedFile } from './file-scan.js';
import { placeOf, PROJECTS_PREFIX, type ProjectDirs } from './vault-paths.js';

/** The search document (and catalog entry) of a scanned file. */
export function docOf(scan: ScannedFile, mtimeMs: number): IndexedDoc {
  const { meta } = scan;
  let text = scan.text ?? '';
  let lineMap: number[] | undefined;
  if (meta.scope === 'transcript' && scan.text !== null) ({ text, lineMap } = transcriptText(scan.text));
  return {
    meta,
    hash: scan.hash,
    ino: scan.ino,
    path: meta.path,
    scope: meta.scope,
    projectSlug: meta.projectSlug,
    type: meta.type,
    title: meta.title,
    text,
    ...(lineMap ? { lineMap } : {}),
    mtimeMs,
    size: meta.size,
  };
}

/** Scans one file into a document; null when it is gone or not a vault file. */
export async function scanDoc(root: string, rel: string, maxBytes: number, projects?: ProjectDirs): Promise<IndexedDoc | null> {
  return scanDocSync(root, rel, maxBytes, projects);
}

function scanDocSync(root: string, rel: string, maxBytes: number, projects?: ProjectDirs): IndexedDoc | null {
  const scan = scanFileSync(root, rel, maxBytes, projects);
  return scan ? docOf(scan, Date.parse(scan.meta.mtime)) : null;
}

/** The on-disk identity a cached document is checked against. */
function identity(root: string, rel: string, projects?: ProjectDirs): { mtimeMs: number; size: number; ino: number } | null {
  const place = placeOf(root, rel, projects);
  if (!place) return null;
  try {
    const s = lstatSync(place.abs);
    return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
  } catch {
    return null;
  }
}

/** Files read or stat'ed between two yields to the event loop (file-scan.ts `forEachSlice`). */
const SLICE = 256;

const sameFile = (doc: IndexedDoc, id: { mtimeMs: number; size: number; ino: number } | null) =>
  id !== null && Math.floor(doc.mtimeMs) === Math.floor(id.mtimeMs) && doc.meta.size === id.size && doc.ino === id.ino;

export interface LoadResult {
  index: SearchIndex;
  /** Whether anything differed from the cache (so the cache should be written again). */
  dirty: boolean;
  fromCache: boolean;
}

/**
 * Builds the catalog and search index for a root: from the cache when there is a usable one, with
 * every file whose size, mtime or inode differs rescanned; else from the files.
 */
export async function loadCatalog(root: string, maxBytes: number, logger: Logger, useCache: boolean): Promise<LoadResult> {
  const [rels, cached] = await Promise.all([walkVault(root), useCache ? loadSearchCache(root, logger) : Promise.resolve(null)]);
  if (!cached) {
    // Every file is read, then indexed, each pass in slices: building the whole index in one go after
    // the walk held the event loop for 0.4–1.2 s at 10,000 files (docs/architecture.md#start), and
    // indexing each file as it is read took a third longer in all than the two passes.
    const docs: IndexedDoc[] = [];
    await forEachSlice(rels, SLICE, (rel) => {
      const doc = scanDocSync(root, rel, maxBytes);
      if (doc) docs.push(doc);
    });
    const index = new SearchIndex();
    await forEachSlice(docs, SLICE, (doc) => index.upsert(doc));
    return { index, dirty: true, fromCache: false };
  }
  const changed = await reconcile(root, cached, maxBytes, rels);
  return { index: cached, dirty: changed.length > 0, fromCache: true };
}

/** What reconcile found different between the catalog and the disk. */
export interface Difference {
  path: string;
  before: IndexedDoc | null;
  after: IndexedDoc | null;
}

/** Which catalog entries a reconcile pass answers for, and the project folders they may live in. */
export interface ReconcileScope {
  owns(rel: string): boolean;
  projects: ProjectDirs;
}

/** The files below the vault root: everything but the opened projects' instruction files. */
const VAULT_FILES: ReconcileScope = { owns: (rel) => !rel.startsWith(`${PROJECTS_PREFIX}/`), projects: new Map() };

/**
 * Brings the catalog in line with the disk (after a cache load, after the watcher became ready, after
 * the root came back), returning what differed. `rels` may be given when the walk is already done;
 * with a `scope`, `rels` are that scope's files and entries outside it are left alone.
 */
export async function reconcile(
  root: string,
  index: SearchIndex,
  maxBytes: number,
  rels?: string[],
  scope: ReconcileScope = VAULT_FILES,
): Promise<Difference[]> {
  const onDisk = rels ?? (await walkVault(root));
  const present = new Set(onDisk);
  const out: Difference[] = [];
  const { projects } = scope;
  for (const [rel, doc] of [...index.docs]) {
    if (scope.owns(rel) && !present.has(rel)) {
      index.remove(rel);
      out.push({ path: rel, before: doc, after: null });
    }
  }
  await forEachSlice(onDisk, SLICE, (rel) => {
    const before = index.docs.get(rel) ?? null;
    if (before && sameFile(before, identity(root, rel, projects))) return;
    const after = scanDocSync(root, rel, maxBytes, projects);
    if (after) index.upsert(after);
    else index.remove(rel);
    if (before?.hash !== after?.hash || (before === null) !== (after === null)) out.push({ path: rel, before, after });
  });
  return out;
}
