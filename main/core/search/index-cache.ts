import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../fs/index.js';
import { analyze } from './analyzer.js';
import { SEARCH_FIELDS, SearchIndex, type IndexedDoc } from './search-index.js';
import { TermIndex } from './term-index.js';
import { Vocabulary } from './vocabulary.js';

/**
 * The search index persisted under `.strata/cache/` (docs/architecture.md: any index is a cache that can
 * be rebuilt from the files). One file: a JSON header line (format version, byte order, the sections'
 * names and sizes), then the sections, each starting at a multiple of 8 bytes: the documents without
 * their texts (JSON), the texts (UTF-8, with their byte offsets), and the term index and vocabulary as the
 * typed arrays they are in memory (term-index.ts `toParts`, vocabulary.ts `toParts`; word lists joined by
 * newlines, which no word holds). Loading is a few copies and no analysis, several times faster than
 * reading and indexing the files again (docs/memory.md#vault-upkeep `vault-ready`). Whether it still
 * matches the files is checked file by file on open (size, mtime and inode; vault-catalog.ts). A missing,
 * corrupt or other-version cache is discarded and the caller rebuilds from the files, and so is one made
 * by an analyzer that reads words differently (`ANALYZER_PROBE`).
 */
// 5: the shared term index and vocabulary as typed arrays, replacing MiniSearch's JSON (version 4).
export const SEARCH_CACHE_VERSION = 5;

/**
 * Words whose terms change when the analyzer does (folding, stemmer, stop words, bigrams): a cache holds
 * the terms of its day, and one made before such a change would miss words without saying so.
 */
const ANALYZER_PROBE = 'Painting activities happily went children the and why Café naïve ÉCOLE 東京都 Привет мир S3 2023 Caroline’s';
const analyzerFingerprint = (): string => analyze(ANALYZER_PROBE).join(' ');

export const searchCacheFile = (root: string): string => path.join(root, '.strata', 'cache', `search-index.v${SEARCH_CACHE_VERSION}.bin`);

/** Caches of earlier formats, never read again. */
const OLD_CACHES = ['search-index.v1.json', 'search-index.v2.bin', 'search-index.v3.bin', 'search-index.v3.json', 'search-index.v4.json'];

type Stored = Omit<IndexedDoc, 'text'>;

/** The sections, in file order. */
const SECTIONS = ['docs', 'textEnds', 'texts', 'ids', 'terms', 'offsets', 'slots', 'counts', 'lengths', 'words', 'wordTerms', 'wordDocs'] as const;
type Section = (typeof SECTIONS)[number];

interface Header {
  version: number;
  analyzer: string;
  endianness: string;
  fields: string[];
  sizes: Record<Section, number>;
}

const align = (n: number) => (n + 7) & ~7;
const bytesOf = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const joined = (list: readonly string[]) => Buffer.from(list.join('\n'));

export async function saveSearchCache(root: string, index: SearchIndex): Promise<void> {
  const docs = [...index.docs.values()];
  const texts = docs.map((d) => Buffer.from(d.text));
  const textEnds = new Uint32Array(texts.length);
  texts.reduce((end, t, i) => (textEnds[i] = end + t.length), 0);
  const terms = index.terms.toParts();
  const words = index.words.toParts();
  const sections: Record<Section, Buffer> = {
    docs: Buffer.from(JSON.stringify(docs.map(({ text: _text, ...rest }) => rest))),
    textEnds: bytesOf(textEnds),
    texts: Buffer.concat(texts),
    ids: Buffer.from(JSON.stringify(terms.ids)),
    terms: joined(terms.terms),
    offsets: bytesOf(terms.offsets),
    slots: bytesOf(terms.slots),
    counts: bytesOf(terms.counts),
    lengths: bytesOf(terms.lengths),
    words: joined(words.words),
    wordTerms: joined(words.terms),
    wordDocs: bytesOf(words.docs),
  };
  const header: Header = {
    version: SEARCH_CACHE_VERSION,
    analyzer: analyzerFingerprint(),
    endianness: os.endianness(),
    fields: [...SEARCH_FIELDS],
    sizes: Object.fromEntries(SECTIONS.map((s) => [s, sections[s].length])) as Record<Section, number>,
  };
  const head = Buffer.from(`${JSON.stringify(header)}\n`);
  const parts: Buffer[] = [head, Buffer.alloc(align(head.length) - head.length)];
  for (const s of SECTIONS) parts.push(sections[s], Buffer.alloc(align(sections[s].length) - sections[s].length));
  await writeFileAtomic(searchCacheFile(root), Buffer.concat(parts), { mode: 0o600, dirMode: 0o700 });
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

/** Copies out a typed array (the file's buffer is not aligned for it, and should not be kept alive). */
function typed<T extends Uint32Array | Uint16Array | Float32Array>(Type: { new (b: ArrayBuffer): T; BYTES_PER_ELEMENT: number }, bytes: Buffer): T {
  if (bytes.length % Type.BYTES_PER_ELEMENT !== 0) throw new Error('section of a wrong size');
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return new Type(copy);
}

/** `count` strings joined by newlines (one empty string joins to nothing, as no string does). */
const lines = (bytes: Buffer, count: number): string[] => (count === 0 ? [] : bytes.toString('utf8').split('\n'));

function parseCache(raw: Buffer): SearchIndex {
  const split = raw.indexOf(0x0a);
  if (split < 0) throw new Error('no header');
  const header = JSON.parse(raw.toString('utf8', 0, split)) as Header;
  if (header?.version !== SEARCH_CACHE_VERSION) throw new Error('other version');
  if (header.analyzer !== analyzerFingerprint()) throw new Error('other analyzer');
  if (header.endianness !== os.endianness() || JSON.stringify(header.fields) !== JSON.stringify(SEARCH_FIELDS)) throw new Error('other layout');
  const at = {} as Record<Section, Buffer>;
  let offset = align(split + 1);
  for (const s of SECTIONS) {
    const size = header.sizes?.[s];
    if (!Number.isInteger(size) || size < 0 || offset + size > raw.length) throw new Error('truncated');
    at[s] = raw.subarray(offset, offset + size);
    offset = align(offset + size);
  }
  if (offset < raw.length) throw new Error('trailing bytes');
  const stored = JSON.parse(at.docs.toString('utf8')) as Stored[];
  const textEnds = typed(Uint32Array, at.textEnds);
  if (!Array.isArray(stored) || textEnds.length !== stored.length || (textEnds.at(-1) ?? 0) !== at.texts.length) throw new Error('documents and texts disagree');
  const docs = stored.map((d, i) => {
    if (typeof d?.path !== 'string') throw new Error('bad document');
    return { ...d, text: at.texts.toString('utf8', i === 0 ? 0 : textEnds[i - 1], textEnds[i]) } as IndexedDoc;
  });
  const offsets = typed(Uint32Array, at.offsets);
  const terms = TermIndex.fromParts(SEARCH_FIELDS, {
    ids: JSON.parse(at.ids.toString('utf8')) as string[],
    terms: lines(at.terms, offsets.length - 1),
    offsets,
    slots: typed(Uint32Array, at.slots),
    counts: typed(Uint16Array, at.counts),
    lengths: typed(Float32Array, at.lengths),
  });
  const wordDocs = typed(Uint32Array, at.wordDocs);
  const words = Vocabulary.fromParts({ words: lines(at.words, wordDocs.length), terms: lines(at.wordTerms, wordDocs.length), docs: wordDocs });
  if (terms.size !== docs.length || docs.some((d) => !terms.has(d.path))) throw new Error('documents and index disagree');
  return new SearchIndex(terms, words, docs);
}
