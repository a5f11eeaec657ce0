import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { scanText } from './scan-text.js';
import { countLines, overlapStart } from './segments.js';
import type { Finding } from './secret-rule.js';

/** The result for one file: every scanned file is listed, with a note when its content was not scanned. */
export interface FileScanResult {
  /** The path as given, or the given folder joined with the path inside it. */
  path: string;
  findings: Finding[];
  /** Why the content was not scanned: a NUL byte in the first 8 KiB, a symlink (never followed), or a read error. */
  skipped?: 'binary' | 'symlink' | 'unreadable';
}

/** Options for `scanFile`; the chunk size is a parameter so tests can exercise chunked scanning on small files. */
export interface ScanFileOptions {
  /** Files larger than this are read and scanned in chunks of this many bytes (default 4 MiB). */
  chunkBytes?: number;
  /** The path to report (default: `file`). */
  displayPath?: string;
  /** The user's "Not a secret" list (`SecretAllowanceStore.isAllowed`): allowed findings are dropped. */
  allowed?: (rule: string, value: string) => boolean;
  /**
   * Drop findings on a line carrying a `strata:allow` comment, as gitleaks honours `gitleaks:allow`. For
   * files the user scans from the command line only: text the agent writes could carry the comment too.
   */
  honorAllowComments?: boolean;
}

const allowComment = 'strata:allow';

/** `scanText` with the file options; `text` is a whole number of lines starting at line `lineOffset + 1`. */
function scanWith(text: string, options: ScanFileOptions, lineOffset = 0): Finding[] {
  const findings = scanText(text, { lineOffset, ...(options.allowed ? { allowed: options.allowed } : {}) });
  if (!options.honorAllowComments || !text.includes(allowComment)) return findings;
  const lines = text.split('\n');
  return findings.filter((f) => !lines[f.line - lineOffset - 1]?.includes(allowComment));
}

const defaultChunk = 4 * 1024 * 1024;
const binaryProbe = 8000;
async function scanChunked(file: string, chunkBytes: number, options: ScanFileOptions): Promise<Finding[] | 'binary'> {
  const handle = await fs.open(file, 'r');
  try {
    const decoder = new TextDecoder('utf-8');
    const buffer = Buffer.alloc(chunkBytes);
    const seen = new Set<string>();
    const findings: Finding[] = [];
    let carry = '';
    let carryLine = 0;
    let first = true;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (first && buffer.subarray(0, Math.min(bytesRead, binaryProbe)).includes(0)) return 'binary';
      first = false;
      const done = bytesRead === 0;
      const text = carry + decoder.decode(buffer.subarray(0, bytesRead), { stream: !done });
      // Scan up to the last full line; a single line longer than four chunks is cut where it stands.
      let cut = done ? text.length : text.lastIndexOf('\n') + 1;
      if (cut === 0 && text.length > chunkBytes * 4) cut = text.length;
      if (cut > 0) {
        for (const f of scanWith(text.slice(0, cut), options, carryLine)) {
          const key = `${f.rule}:${f.line}:${f.column}`;
          if (!seen.has(key)) {
            seen.add(key);
            findings.push({ rule: f.rule, line: f.line, column: f.column });
          }
        }
      }
      if (done) return findings;
      const next = cut > 0 ? overlapStart(text, cut) : 0;
      carryLine += countLines(text, next);
      carry = text.slice(next);
    }
  } finally {
    await handle.close();
  }
}

/**
 * Scans one file. Small files are read whole; larger ones in chunks with an overlap, so memory stays
 * bounded. Binary files are listed with no findings. Findings carry rule, line and column only.
 */
export async function scanFile(file: string, options: ScanFileOptions = {}): Promise<FileScanResult> {
  const shown = options.displayPath ?? file;
  const chunkBytes = options.chunkBytes ?? defaultChunk;
  try {
    const stat = await fs.stat(file);
    if (stat.size <= chunkBytes) {
      const bytes = await fs.readFile(file);
      if (bytes.subarray(0, binaryProbe).includes(0)) return { path: shown, findings: [], skipped: 'binary' };
      const findings = scanWith(bytes.toString('utf8'), options).map(({ rule, line, column }) => ({ rule, line, column }));
      return { path: shown, findings };
    }
    const result = await scanChunked(file, chunkBytes, options);
    return result === 'binary' ? { path: shown, findings: [], skipped: 'binary' } : { path: shown, findings: result };
  } catch {
    return { path: shown, findings: [], skipped: 'unreadable' };
  }
}

function joinShown(given: string, name: string): string {
  return given.endsWith('/') || given.endsWith(path.sep) ? `${given}${name}` : `${given}${path.sep}${name}`;
}

async function scanFolder(dir: string, shown: string, out: FileScanResult[], options: ScanFileOptions): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    out.push({ path: shown, findings: [], skipped: 'unreadable' });
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    const entryShown = joinShown(shown, entry.name);
    // Symlinks inside a folder are never followed (they may lead out of it or loop).
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) await scanFolder(full, entryShown, out, options);
    else if (entry.isFile()) out.push(await scanFile(full, { ...options, displayPath: entryShown }));
  }
}

/**
 * Scans files and folders (recursively, in name order) and lists every scanned file. A path given
 * directly that is a symlink is listed as skipped, not followed. Throws `AppFailure('not_found')` for a
 * path that does not exist, before scanning anything.
 */
export async function scanPaths(paths: readonly string[], options: ScanFileOptions = {}): Promise<FileScanResult[]> {
  const stats = [];
  for (const given of paths) {
    try {
      stats.push(await fs.lstat(given));
    } catch {
      throw new AppFailure('not_found', `no such file or folder: ${given}`);
    }
  }
  const out: FileScanResult[] = [];
  for (const [i, given] of paths.entries()) {
    const stat = stats[i]!;
    if (stat.isSymbolicLink()) out.push({ path: given, findings: [], skipped: 'symlink' });
    else if (stat.isDirectory()) await scanFolder(given, given, out, options);
    else if (stat.isFile()) out.push(await scanFile(given, { ...options, displayPath: given }));
  }
  return out;
}
