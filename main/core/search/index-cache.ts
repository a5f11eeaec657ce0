import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../ports.js';
import { writeFileAtomic } from '../fs/index.js';
import { exportMiniState, importMiniState, type MiniMeta } from './mini-state.js';
import { SEARCH_OPTIONS, SearchIndex, type IndexedDoc } from './search-index.js';

/**
 * The search index persisted under `.strata/cache/` (docs/architecture.md: any index is a cache that can be
 * rebuilt from the files). One file: a 4-byte header length, a JSON header (format version, byte
 * order, documents without their text, MiniSearch's tables, the terms), the documents' texts as one
 * UTF-8 run, zero padding to a multiple of 4, then the posting lists as 32-bit integers
 * (mini-state.ts). This loads several times faster than MiniSearch's JSON with the texts inside
 * (docs/memory.md#vault-upkeep `vault-ready`). A missing, corrupt or other-version cache is discarded; the caller rebuilds
 * from the files.
 */
export const SEARCH_CACHE_VERSION = 2;

export const searchCacheFile = (root: string): string => path.join(root, '.strata', 'cache', `search-index.v${SEARCH_CACHE_VERSION}.bin`);

interface Header {
  version: number;
  endianness: 'LE' | 'BE';
  /** The documents with `text` left out; it is in the run of texts, `textBytes[i]` bytes each. */
  docs: IndexedDoc[];
  textBytes: number[];
  mini: MiniMeta;
  terms: string[];
  postings: number;
}

const padding = (offset: number) => (4 - (offset % 4)) % 4;

export async function saveSearchCache(root: string, index: SearchIndex): Promise<void> {
  const state = exportMiniState(index.mini);
  const docs = [...index.docs.values()];
  const texts = docs.map((d) => Buffer.from(d.text, 'utf8'));
  const header: Header = {
    version: SEARCH_CACHE_VERSION,
    endianness: os.endianness(),
    docs: docs.map((d) => ({ ...d, text: '' })),
    textBytes: texts.map((t) => t.length),
    mini: state.meta,
    terms: state.terms,
    postings: state.postings.length,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const lead = Buffer.alloc(4);
  lead.writeUInt32LE(json.length);
  const textLength = texts.reduce((n, t) => n + t.length, 0);
  const pad = Buffer.alloc(padding(4 + json.length + textLength));
  const postings = Buffer.from(state.postings.buffer, state.postings.byteOffset, state.postings.byteLength);
  await writeFileAtomic(searchCacheFile(root), Buffer.concat([lead, json, ...texts, pad, postings]), { mode: 0o600, dirMode: 0o700 });
  // The version-1 cache (MiniSearch JSON) is never read again.
  await fs.rm(path.join(root, '.strata', 'cache', 'search-index.v1.json'), { force: true }).catch(() => undefined);
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

function parseCache(raw: Buffer): SearchIndex {
  if (raw.length < 4) throw new Error('no header');
  const headerLength = raw.readUInt32LE(0);
  if (4 + headerLength > raw.length) throw new Error('header cut short');
  const header = JSON.parse(raw.toString('utf8', 4, 4 + headerLength)) as Header;
  if (header?.version !== SEARCH_CACHE_VERSION || !Array.isArray(header.docs)) throw new Error('other version');
  if (header.endianness !== os.endianness()) throw new Error('written on a machine of the other byte order');
  if (!Array.isArray(header.textBytes) || header.textBytes.length !== header.docs.length) throw new Error('texts and documents disagree');
  let offset = 4 + headerLength;
  header.docs.forEach((doc, i) => {
    const end = offset + header.textBytes[i]!;
    if (!doc || end > raw.length) throw new Error('texts cut short');
    doc.text = raw.toString('utf8', offset, end);
    offset = end;
  });
  const start = offset + padding(offset);
  if (raw.length - start !== header.postings * 4) throw new Error('posting lists cut short');
  // A copy: the index keeps its posting lists packed in this array (packed-postings.ts), and a view
  // would keep the whole file's buffer alive with it.
  const postings = new Int32Array(raw.buffer.slice(raw.byteOffset + start, raw.byteOffset + raw.length));
  const mini = importMiniState({ meta: header.mini, terms: header.terms, postings }, SEARCH_OPTIONS);
  if (mini.documentCount !== header.docs.length) throw new Error('documents and index disagree');
  for (const d of header.docs) {
    if (typeof d?.path !== 'string' || typeof d.text !== 'string' || !mini.has(d.path)) throw new Error('bad document');
  }
  return new SearchIndex(mini, header.docs);
}
