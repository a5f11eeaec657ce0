import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { loadSearchCache, saveSearchCache, searchCacheFile, SEARCH_CACHE_VERSION } from '../../../../main/core/search/index-cache.js';
import { indexedDoc } from './indexed-doc.js';
import { SearchIndex, type IndexedDoc } from '../../../../main/core/search/search-index.js';
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

  it('is a JSON header then sections at multiples of 8 bytes, and replaces the caches of earlier formats', async () => {
    const root = await tempDir('strata-cache-');
    const dir = path.join(root, '.strata', 'cache');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'search-index.v2.bin'), 'old');
    await fs.writeFile(path.join(dir, 'search-index.v4.json'), '{"version":4,"docs":[]}\n{"documentCount":0}');
    await saveSearchCache(root, SearchIndex.fromDocs(docs));
    expect((await fs.readdir(dir)).filter((f) => f.startsWith('search-index'))).toEqual([path.basename(searchCacheFile(root))]);
    const raw = await fs.readFile(searchCacheFile(root));
    const header = JSON.parse(raw.toString('utf8', 0, raw.indexOf(0x0a))) as { version: number; fields: string[]; sizes: Record<string, number> };
    expect(header).toMatchObject({ version: SEARCH_CACHE_VERSION, fields: ['title', 'text'] });
    const aligned = (n: number) => Math.ceil(n / 8) * 8;
    const total = Object.values(header.sizes).reduce((at, size) => at + aligned(size), aligned(raw.indexOf(0x0a) + 1));
    expect(raw.length).toBe(total);
  });

  it('discards a truncated cache, one of another version or analyzer, and one whose index and documents disagree', async () => {
    const root = await tempDir('strata-cache-');
    const file = searchCacheFile(root);
    // Edits the file's bytes as latin1 (one character a byte), so the binary sections stay as they were.
    const spoil = async (change: (bytes: string) => string, reason: string) => {
      await saveSearchCache(root, SearchIndex.fromDocs(docs));
      await fs.writeFile(file, Buffer.from(change(await fs.readFile(file, 'latin1')), 'latin1'));
      const log = testLogger();
      expect(await loadSearchCache(root, log.logger)).toBeNull();
      expect(log.entries.filter((e) => e.level === 'warn' && /cache discarded/.test(e.message)).map((e) => e.fields?.reason)).toEqual([reason]);
      await expect(fs.stat(file)).rejects.toThrow();
    };
    await spoil((bytes) => bytes.slice(0, bytes.length - 8), 'truncated');
    await spoil((bytes) => bytes.split('\n')[0]!, 'no header');
    await spoil((bytes) => bytes.replace(`"version":${SEARCH_CACHE_VERSION}`, '"version":99'), 'other version');
    // Made by an analyzer that read words otherwise (another stemmer): its terms would miss words.
    await spoil((bytes) => bytes.replace(/"analyzer":"[^"]*"/, '"analyzer":"paint activ"'), 'other analyzer');
    // The same length, so every section stays in place: only the documents' list changes.
    await spoil((bytes) => bytes.replaceAll('"path":"CLAUDE.md"', '"path":"CLAUDE.xx"'), 'documents and index disagree');
    expect(await loadSearchCache(root, silentLogger)).toBeNull();
  });
});
