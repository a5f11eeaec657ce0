import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../fs/index.js';
import { SEARCH_OPTIONS, SearchIndex, type IndexedDoc } from './search-index.js';

/**
 * The search index persisted under `.strata/cache/` (docs/architecture.md: any index is a cache that can
 * be rebuilt from the files). One file, two lines: a JSON header (format version and the documents,
 * texts included, which the vault also lists and shows snippets from), then the index as MiniSearch's
 * own `toJSON`, read back with its public `loadJSON`. Whether it still matches the files is checked
 * file by file on open (size, mtime and inode; vault-catalog.ts). A missing, corrupt or other-version
 * cache is discarded and the caller rebuilds from the files; loading it is several times faster than
 * reading and indexing the files again (docs/memory.md#vault-upkeep `vault-ready`).
 */
// 4: MiniSearch's own JSON, and a memory's meta carries its provenance and dates (`memory`).
export const SEARCH_CACHE_VERSION = 4;

export const searchCacheFile = (root: string): string => path.join(root, '.strata', 'cache', `search-index.v${SEARCH_CACHE_VERSION}.json`);

/** Caches of earlier formats, never read again. */
const OLD_CACHES = ['search-index.v1.json', 'search-index.v2.bin', 'search-index.v3.bin', 'search-index.v3.json'];

interface Header {
  version: number;
  docs: IndexedDoc[];
}

export async function saveSearchCache(root: string, index: SearchIndex): Promise<void> {
  const header: Header = { version: SEARCH_CACHE_VERSION, docs: [...index.docs.values()] };
  // JSON.stringify escapes every line break inside strings: the first newline ends the header.
  const text = `${JSON.stringify(header)}\n${JSON.stringify(index.mini)}`;
  await writeFileAtomic(searchCacheFile(root), text, { mode: 0o600, dirMode: 0o700 });
  const dir = path.dirname(searchCacheFile(root));
  await Promise.all(OLD_CACHES.map((name) => fs.rm(path.join(dir, name), { force: true }).catch(() => undefined)));
}

/** The cached index, or null when there is none usable (the reason is logged, never thrown). */
export async function loadSearchCache(root: string, logger: Logger): Promise<SearchIndex | null> {
  const file = searchCacheFile(root);
  let raw: Buffer;
  try {
    // One sequential read of a local file: faster than the thread pool's chunks, and open() awaits it.
    raw = readFileSync(file);
  } catch {
    return null;
  }
  try {
    return parseCache(raw);
  } catch (error) {
    logger.warn('search cache discarded; rebuilding from the files', { reason: (error as Error).message });
    await fs.rm(file, { force: true }).catch(() => undefined);
    return null;
  }
}

/** Each line decoded only when parsed, so the whole file never sits in memory as one more string. */
function parseCache(raw: Buffer): SearchIndex {
  const split = raw.indexOf(0x0a);
  if (split < 0) throw new Error('no index after the header');
  const header = JSON.parse(raw.toString('utf8', 0, split)) as Header;
  if (header?.version !== SEARCH_CACHE_VERSION || !Array.isArray(header.docs)) throw new Error('other version');
  const mini = MiniSearch.loadJSON<IndexedDoc>(raw.toString('utf8', split + 1), SEARCH_OPTIONS);
  if (mini.documentCount !== header.docs.length) throw new Error('documents and index disagree');
  for (const d of header.docs) {
    if (typeof d?.path !== 'string' || typeof d.text !== 'string' || !mini.has(d.path)) throw new Error('bad document');
  }
  return new SearchIndex(mini, header.docs);
}
