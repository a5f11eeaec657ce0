import { promises as fs } from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { loadSearchCache, saveSearchCache, searchCacheFile, SEARCH_CACHE_VERSION } from '../../../../main/core/search/index-cache.js';
import { indexedDoc } from './indexed-doc.js';
import { SEARCH_OPTIONS, SearchIndex, type IndexedDoc } from '../../../../main/core/search/search-index.js';
import { silentLogger } from '../../../../main/core/ports.js';
import { testLogger } from '../../../support/test-logger.js';

const doc = indexedDoc;

const docs: IndexedDoc[] = [
  doc('projects/p/memory/a.md', 'Database', '---\nname: Database\n---\nWe use PostgreSQL 15, not MySQL.\n**Why:** replication — and speed.'),
  doc('projects/p/memory/b.md', 'Deploys', 'Deploys go through the blue pipeline. Pipeline pipeline PIPELINE!'),
  doc('projects/p/memory/c.md', 'Ünïcödé notes', 'Café naïve résumé; 東京 tokyo… emoji 🎉 and tabs\tand\r\nCRLF lines'),
  doc('projects/p/memory/d.md', '', ''),
  doc('CLAUDE.md', 'CLAUDE.md', '# Me\n\nAlways answer in British English. postgres'),
];
const queries = ['postgresql', 'pipe', 'pipeline blue', 'café', 'tokyo', 'british english', 'nothing-here', 'dep', 'why', 'mariadb', 'ünïcödé'];

describe('Search cache file', () => {
  it('round-trips documents (texts included) and search results, after edits and removals too', async () => {
    const root = await tempDir('strata-cache-');
    const index = SearchIndex.fromDocs(docs);
    index.upsert(doc('projects/p/memory/a.md', 'Database', 'Now MariaDB — ünïcödé kept.\nsecond line'));
    index.remove('projects/p/memory/d.md');
    await saveSearchCache(root, index);
    const loaded = await loadSearchCache(root, silentLogger);
    expect(loaded).not.toBeNull();
    expect([...loaded!.docs.values()]).toEqual([...index.docs.values()]);
    for (const q of queries) expect(loaded!.search(q), q).toEqual(index.search(q));
    // What is loaded is an ordinary index: it takes further edits like the one it was saved from.
    for (const i of [index, loaded!]) i.upsert(doc('projects/p/memory/e.md', 'Extra', 'another pipeline'));
    expect(loaded!.search('pipeline')).toEqual(index.search('pipeline'));
  });

  it('is MiniSearch’s own JSON after a header, and replaces the caches of earlier formats', async () => {
    const root = await tempDir('strata-cache-');
    const dir = path.join(root, '.strata', 'cache');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'search-index.v2.bin'), 'old');
    const index = SearchIndex.fromDocs(docs);
    await saveSearchCache(root, index);
    expect((await fs.readdir(dir)).filter((f) => f.startsWith('search-index'))).toEqual([path.basename(searchCacheFile(root))]);
    const [header, json] = (await fs.readFile(searchCacheFile(root), 'utf8')).split('\n');
    expect(JSON.parse(header!)).toMatchObject({ version: SEARCH_CACHE_VERSION });
    expect(MiniSearch.loadJSON<IndexedDoc>(json!, SEARCH_OPTIONS).search('pipeline')).toEqual(index.mini.search('pipeline'));
  });

  it('discards a truncated cache, one of another version, and one whose index and documents disagree', async () => {
    const root = await tempDir('strata-cache-');
    const file = searchCacheFile(root);
    const save = () => saveSearchCache(root, SearchIndex.fromDocs(docs));
    const spoil = async (change: (text: string) => string) => {
      await save();
      await fs.writeFile(file, change(await fs.readFile(file, 'utf8')));
      const log = testLogger();
      expect(await loadSearchCache(root, log.logger)).toBeNull();
      expect(log.entries.some((e) => e.level === 'warn' && /cache discarded/.test(e.message))).toBe(true);
      await expect(fs.stat(file)).rejects.toThrow();
    };
    await spoil((text) => text.slice(0, text.length - 8));
    await spoil((text) => text.replace(`"version":${SEARCH_CACHE_VERSION}`, '"version":99'));
    await spoil((text) => text.replaceAll('"path":"CLAUDE.md"', '"path":"elsewhere.md"'));
    await spoil((text) => text.split('\n')[0]!);
    expect(await loadSearchCache(root, silentLogger)).toBeNull();
  });
});
