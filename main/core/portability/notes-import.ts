import { promises as fs } from 'node:fs';
import path from 'node:path';
import { importSourceLabels, type ImportItem, type ImportPreview, type ImportSource } from '../../../common/domain/portability.js';
import { memoryTypes, parseMemoryFile, type MemoryType } from '../../../common/memory-file/index.js';
import { memoryFileName, provenanceLine } from './import-naming.js';
import { secretBlanker, shownBody, type ImportScan } from './import-secrets.js';
import { inferType, nameOf } from './paste-parser.js';
import { readZip } from './zip.js';

/**
 * Imports markdown notes (a folder, or a zip such as a Strata export) as memory items. A file that is
 * already a memory (name, description and a known type in its frontmatter) is kept byte for byte, so
 * an export imports back to the same files; any other note becomes a memory whose name comes from its
 * first heading or file name and which says where it came from.
 */

const MAX_FILES = 2_000;
const MAX_NOTE_BYTES = 1024 * 1024;
const VAULT_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/;
const INDEX_FILE = 'MEMORY.md';

export interface NoteFile {
  /** Path inside the folder or archive, with `/`. */
  relPath: string;
  text: string;
}

/** The notes under `dir`: `.md` files, hidden folders and symlinks skipped, too-large files reported. */
export async function readNotesFolder(dir: string): Promise<{ notes: NoteFile[]; skipped: ImportPreview['skipped'] }> {
  const notes: NoteFile[] = [];
  const skipped: ImportPreview['skipped'] = [];
  const stat = await fs.stat(dir).catch(() => null);
  if (!stat?.isDirectory()) throw new Error(`${dir} is not a folder`);
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      // Symlinks are not followed: a link out of the folder must not widen the import.
      if (e.isDirectory()) await walk(child);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) {
        if (notes.length >= MAX_FILES) {
          skipped.push({ what: child, why: `more than ${MAX_FILES} notes; import the rest separately` });
          continue;
        }
        const size = (await fs.stat(path.join(dir, child))).size;
        if (size > MAX_NOTE_BYTES) skipped.push({ what: child, why: 'over 1 MB, too large for a memory' });
        else notes.push({ relPath: child, text: await fs.readFile(path.join(dir, child), 'utf8') });
      }
    }
  };
  await walk('');
  return { notes, skipped };
}

/** The `.md` files of a zip archive. */
export function readNotesZip(archive: Buffer): { notes: NoteFile[]; skipped: ImportPreview['skipped'] } {
  const notes: NoteFile[] = [];
  const skipped: ImportPreview['skipped'] = [];
  for (const e of readZip(archive)) {
    if (!e.name.toLowerCase().endsWith('.md')) continue;
    if (e.data.length > MAX_NOTE_BYTES) skipped.push({ what: e.name, why: 'over 1 MB, too large for a memory' });
    else notes.push({ relPath: e.name, text: e.data.toString('utf8') });
  }
  return { notes, skipped };
}

const firstHeading = (body: string) => /^\s*#{1,6}\s+(.+?)\s*#*\s*$/m.exec(body)?.[1] ?? null;
/** The first line of text under the headings, as a description. */
const firstLine = (body: string) =>
  body
    .split('\n')
    .filter((l) => !/^\s*#{1,6}\s/.test(l))
    .map((l) => l.replace(/^\s*(?:[-*]|\d+[.)])\s+/, '').trim())
    .find((l) => l.length > 0) ?? null;
const humanize = (file: string) => file.replace(/\.md$/i, '').replace(/[_-]+/g, ' ').trim();

/**
 * Notes → a preview; `source` is 'folder' for notes and 'strata' for a Strata export. A name,
 * description or file name worked out from a note has every value `scan` finds in the note (or its file
 * name) blanked; a file name holding one is not kept.
 */
export function previewNotes(notes: readonly NoteFile[], source: ImportSource, now: number, where: string, scan: ImportScan): ImportPreview {
  const items: ImportItem[] = [];
  const skipped: ImportPreview['skipped'] = [];
  const taken = new Set<string>();
  for (const note of notes) {
    const base = note.relPath.split('/').pop()!;
    if (base === INDEX_FILE) {
      skipped.push({ what: note.relPath, why: 'a memory index; it is rebuilt from the imported files' });
      continue;
    }
    const parsed = parseMemoryFile(note.text);
    if (!note.text.trim()) {
      skipped.push({ what: note.relPath, why: 'empty' });
      continue;
    }
    const isMemory = parsed.flags.length === 0 && parsed.type !== null && parsed.type !== 'untyped';
    const blank = secretBlanker(scan, note.text, base);
    const keepName = VAULT_FILE_NAME.test(base) && !taken.has(base.toLowerCase()) && blank(base) === base;
    if (isMemory) {
      const fileName = keepName ? base : memoryFileName(parsed.type!, blank(parsed.name!), taken);
      taken.add(fileName.toLowerCase());
      items.push({
        id: `item-${items.length + 1}`, fileName, name: parsed.name!, description: parsed.description!,
        type: parsed.type as MemoryType, body: shownBody(parsed.body), verbatim: note.text,
      });
      continue;
    }
    const body = parsed.body.trim();
    const name = blank(parsed.name ?? firstHeading(body) ?? humanize(blank(base))).slice(0, 200);
    const description = blank(parsed.description ?? firstLine(body) ?? name).slice(0, 200);
    const type: MemoryType = (memoryTypes as readonly string[]).includes(parsed.rawType ?? '') ? (parsed.rawType as MemoryType) : inferType(`${name} ${description}`, null);
    const fileName = keepName && base.startsWith(`${type}_`) ? base : memoryFileName(type, nameOf(name), taken);
    taken.add(fileName.toLowerCase());
    items.push({
      id: `item-${items.length + 1}`, fileName, name, description, type,
      body: `${body}\n\n${provenanceLine(`${importSourceLabels[source]} (${where}/${note.relPath})`, now, null)}`,
    });
  }
  return { source, items, skipped };
}
