import { promises as fs } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { SEARCH_OPTIONS, SearchIndex, type IndexedDoc } from './search-index.js';

/**
 * The search index persisted under `.strata/cache/` (DESIGN.md: any index is a cache that can be
 * rebuilt from the files). One file: a header JSON line (format version + documents) then MiniSearch's
 * own JSON. A missing, corrupt or other-version cache is discarded; the caller rebuilds from the files.
 */
export const SEARCH_CACHE_VERSION = 1;

export const searchCacheFile = (root: string): string => path.join(root, '.strata', 'cache', `search-index.v${SEARCH_CACHE_VERSION}.json`);

interface Header {
  version: number;
  docs: IndexedDoc[];
}

export async function saveSearchCache(root: string, index: SearchIndex): Promise<void> {
  const header: Header = { version: SEARCH_CACHE_VERSION, docs: [...index.docs.values()] };
  await writeFileAtomic(searchCacheFile(root), `${JSON.stringify(header)}\n${JSON.stringify(index.toJSON())}`, {
    mode: 0o600,
    dirMode: 0o700,
  });
}

/** The cached index, or null when there is none usable (the reason is logged, never thrown). */
export async function loadSearchCache(root: string, logger: Logger): Promise<SearchIndex | null> {
  const file = searchCacheFile(root);
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const cut = raw.indexOf('\n');
    if (cut === -1) throw new Error('no header line');
    const header = JSON.parse(raw.slice(0, cut)) as Header;
    if (header?.version !== SEARCH_CACHE_VERSION || !Array.isArray(header.docs)) throw new Error('other version');
    const mini = MiniSearch.loadJSON<IndexedDoc>(raw.slice(cut + 1), SEARCH_OPTIONS);
    if (mini.documentCount !== header.docs.length) throw new Error('documents and index disagree');
    for (const d of header.docs) {
      if (typeof d?.path !== 'string' || typeof d.text !== 'string' || !mini.has(d.path)) throw new Error('bad document');
    }
    return new SearchIndex(mini, header.docs);
  } catch (error) {
    logger.warn('search cache discarded; rebuilding from the files', { reason: (error as Error).message });
    await fs.rm(file, { force: true }).catch(() => undefined);
    return null;
  }
}
