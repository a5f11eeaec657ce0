/** Memory import and export (docs/memory-upkeep.md): pasted answers, notes folders, zips and one document. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ImportPreview, ImportSource } from '../../../common/domain/portability.js';
import { scanPreview, type ImportGuard } from './import-secrets.js';
import { previewNotes, readNotesFolder, readNotesZip } from './notes-import.js';
import { parsePastedMemories } from './paste-parser.js';

export { parsePastedMemories } from './paste-parser.js';
export type { ImportGuard, ImportScan } from './import-secrets.js';
export { writeImport } from './import-writer.js';
export { collectMemories, memoriesMarkdown, memoriesZip } from './memory-export.js';
export { readZip, writeZip } from './zip.js';

/** The largest zip read for an import. */
const MAX_ZIP_BYTES = 64 * 1024 * 1024;

/** A preview of a pasted answer from another assistant, each item scanned for secrets. */
export function previewPaste(pasted: string, source: Exclude<ImportSource, 'folder' | 'strata'>, now: number, guard: ImportGuard): ImportPreview {
  return scanPreview(parsePastedMemories(pasted, source, now, guard.scan), guard);
}

/**
 * A preview of a folder of markdown notes, or of a `.zip` of them (a Strata export is recognised by its
 * `projects/…/memory/` paths), each item scanned for secrets.
 */
export async function previewNotesAt(where: string, now: number, guard: ImportGuard): Promise<ImportPreview> {
  if (where.toLowerCase().endsWith('.zip')) {
    const stat = await fs.stat(where).catch(() => null);
    if (!stat?.isFile()) throw new Error(`${where} is not a file`);
    if (stat.size > MAX_ZIP_BYTES) throw new Error(`${path.basename(where)} is over ${MAX_ZIP_BYTES / 1024 / 1024} MB`);
    const { notes, skipped } = readNotesZip(await fs.readFile(where));
    // `<project>/memory/…` as Strata exports now, `projects/<slug>/memory/…` as it used to.
    const fromStrata = notes.length > 0 && notes.every((n) => /^(?:projects\/)?[^/]+\/memory\//.test(n.relPath));
    const preview = previewNotes(notes, fromStrata ? 'strata' : 'folder', now, path.basename(where), guard.scan);
    return scanPreview({ ...preview, skipped: [...skipped, ...preview.skipped] }, guard);
  }
  const { notes, skipped } = await readNotesFolder(where);
  const preview = previewNotes(notes, 'folder', now, path.basename(where), guard.scan);
  return scanPreview({ ...preview, skipped: [...skipped, ...preview.skipped] }, guard);
}

/** The file name an export is offered under: `strata-memory-<project's name, or all>-<date>.<ext>`. */
export function exportFileName(projectName: string | null, format: 'zip' | 'markdown', now: number): string {
  const who = projectName ? projectName.normalize('NFC').replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/g, '').slice(0, 60) || 'project' : 'all';
  return `strata-memory-${who}-${new Date(now).toISOString().slice(0, 10)}.${format === 'zip' ? 'zip' : 'md'}`;
}
