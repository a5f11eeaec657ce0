import { promises as fs } from 'node:fs';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { buildMiniSearch } from '../../../../main/core/search/mini-build.js';
import { exportMiniState, importMiniState, packedTerms } from '../../../../main/core/search/mini-state.js';
import { loadSearchCache, saveSearchCache, searchCacheFile } from '../../../../main/core/search/index-cache.js';
import { SEARCH_OPTIONS, SearchIndex, type IndexedDoc } from '../../../../main/core/search/search-index.js';
import { silentLogger } from '../../../../main/core/ports.js';

function doc(path: string, title: string, text: string): IndexedDoc {
  return {
    meta: { path, scope: 'project-memory', projectSlug: 'p', title, description: null, type: null, size: text.length, mtime: new Date(0).toISOString(), error: null, binary: false, tooLarge: false },
    hash: null,
    ino: 1,
    path,
    scope: 'project-memory',
    projectSlug: 'p',
    type: null,
    title,
    text,
    mtimeMs: 0,
    size: text.length,
  };
}

const docs: IndexedDoc[] = [
  doc('projects/p/memory/a.md', 'Database', '---\nname: Database\n---\nWe use PostgreSQL 15, not MySQL.\n**Why:** replication — and speed.'),
  doc('projects/p/memory/b.md', 'Deploys', 'Deploys go through the blue pipeline. Pipeline pipeline PIPELINE!'),
  doc('projects/p/memory/c.md', 'Ünïcödé notes', 'Café naïve résumé; 東京 tokyo… emoji 🎉 and tabs\tand\r\nCRLF lines'),
  doc('projects/p/memory/d.md', '', ''),
  doc('CLAUDE.md', 'CLAUDE.md', '# Me\n\nAlways answer in British English. postgres'),
];
const queries = ['postgresql', 'pipe', 'pipeline blue', 'café', 'tokyo', 'british english', 'nothing-here', 'dep', 'why'];

const searchAll = (mini: MiniSearch<IndexedDoc>) =>
  queries.map((q) => [mini.search(q, {}), mini.search(q, { combineWith: 'OR' })]);

describe('MiniSearch state built and restored directly', () => {
  it('builds the same index as addAll, term and posting order included', () => {
    const reference = new MiniSearch<IndexedDoc>(SEARCH_OPTIONS);
    reference.addAll(docs);
    const built = buildMiniSearch(docs, SEARCH_OPTIONS);
    expect(JSON.stringify(built)).toBe(JSON.stringify(reference));
    expect(searchAll(built)).toEqual(searchAll(reference));
  });

  it('builds as addAll with other tokenizers and term processing: stop words, several terms per token', () => {
    const options = {
      ...SEARCH_OPTIONS,
      tokenize: (text: string) => text.split(/\s+/),
      processTerm: (term: string, field?: string) => {
        const lower = term.toLowerCase();
        if (lower === 'the' || lower === 'and') return null;
        return field === 'title' && lower.includes('-') ? [lower, ...lower.split('-')] : lower;
      },
    };
    const hyphenated = [...docs, doc('projects/p/memory/h.md', 'Blue-green deploys', 'The blue-green switch and the Blue pipeline')];
    const reference = new MiniSearch<IndexedDoc>(options);
    reference.addAll(hyphenated);
    expect(JSON.stringify(buildMiniSearch(hyphenated, options))).toBe(JSON.stringify(reference));
  });

  it('restores an exported state as loadJSON would, after discards and re-adds too', () => {
    const mini = buildMiniSearch(docs, SEARCH_OPTIONS);
    mini.discard('projects/p/memory/b.md');
    mini.add(doc('projects/p/memory/b.md', 'Deploys', 'Deploys now go through the green pipeline.'));
    mini.discard('projects/p/memory/d.md');
    const restored = importMiniState(exportMiniState(mini), SEARCH_OPTIONS);
    const reference = MiniSearch.loadJSON<IndexedDoc>(JSON.stringify(mini), SEARCH_OPTIONS);
    expect(JSON.stringify(restored)).toBe(JSON.stringify(reference));
    expect(searchAll(restored)).toEqual(searchAll(reference));
    restored.add(doc('projects/p/memory/e.md', 'Extra', 'another pipeline'));
    reference.add(doc('projects/p/memory/e.md', 'Extra', 'another pipeline'));
    expect(searchAll(restored)).toEqual(searchAll(reference));
  });

  it('unpacks every posting list when settling, changing nothing a search or the cache sees', async () => {
    const index = SearchIndex.fromDocs(docs);
    const before = { json: JSON.stringify(exportMiniState(index.mini)), results: searchAll(index.mini) };
    expect(packedTerms(index.mini).length).toBeGreaterThan(10);
    await index.settle(() => true);
    expect(packedTerms(index.mini).length).toBeGreaterThan(10);
    await index.settle();
    expect(packedTerms(index.mini)).toEqual([]);
    expect(JSON.stringify(exportMiniState(index.mini))).toBe(before.json);
    expect(searchAll(index.mini)).toEqual(before.results);
  });

  it('refuses posting lists that do not match the terms', () => {
    const state = exportMiniState(buildMiniSearch(docs, SEARCH_OPTIONS));
    expect(() => importMiniState({ ...state, postings: state.postings.subarray(0, state.postings.length - 3) }, SEARCH_OPTIONS)).toThrow();
    expect(() => importMiniState({ ...state, terms: state.terms.slice(1) }, SEARCH_OPTIONS)).toThrow();
  });
});

describe('Search cache file', () => {
  it('round-trips documents (texts included) and search results', async () => {
    const root = await tempDir('strata-cache-');
    const index = SearchIndex.fromDocs(docs);
    index.upsert(doc('projects/p/memory/a.md', 'Database', 'Now MariaDB — ünïcödé kept.'));
    await saveSearchCache(root, index);
    const loaded = await loadSearchCache(root, silentLogger);
    expect(loaded).not.toBeNull();
    expect([...loaded!.docs.values()]).toEqual([...index.docs.values()]);
    for (const q of [...queries, 'mariadb', 'ünïcödé']) expect(loaded!.search(q)).toEqual(index.search(q));
  });

  it('discards a truncated cache', async () => {
    const root = await tempDir('strata-cache-');
    await saveSearchCache(root, SearchIndex.fromDocs(docs));
    const file = searchCacheFile(root);
    const bytes = await fs.readFile(file);
    await fs.writeFile(file, bytes.subarray(0, bytes.length - 8));
    expect(await loadSearchCache(root, silentLogger)).toBeNull();
    await expect(fs.stat(file)).rejects.toThrow();
  });
});
