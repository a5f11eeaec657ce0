import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { VaultFileMeta } from '../../../common/domain/vault.js';
import {
  classifyVaultPath,
  isIgnoredRelative,
  isInside,
  isProjectInstructionFile,
  isMemoryFile,
  placeOf,
  projectInstructionPath,
  toVaultPath,
  type ProjectDirs,
  type VaultLocation,
} from './vault-paths.js';
import { memoryTypeOf } from '../../../common/memory-file/index.js';
import { parseMarkdown, type ParsedMarkdown } from './markdown-view.js';
import { memoryExtras } from './memory-extras.js';
import { notesTitle, transcriptTitle } from './display-names.js';

/** One scanned file: its metadata and, when it could be loaded as text, the text and its hash. */
export interface ScannedFile {
  meta: VaultFileMeta;
  location: VaultLocation;
  text: string | null;
  hash: string | null;
  parsed: ParsedMarkdown | null;
  /** Identity of the file on disk, used to pair an unlink with an add into a rename. */
  ino: number | null;
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** NUL bytes or invalid UTF-8: shown as binary, never opened as text (docs/memory.md#vault-upkeep "Bad input"). */
export function decodeText(buffer: Buffer): string | null {
  if (buffer.subarray(0, 8192).includes(0)) return null;
  try {
    return utf8.decode(buffer);
  } catch {
    return null;
  }
}

const errnoMessage = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'Broken symbolic link: its target does not exist';
    case 'ELOOP':
      return 'Symbolic link loop: not followed';
    case 'EACCES':
    case 'EPERM':
      return 'Unreadable: permission denied';
    default:
      return `Unreadable: ${code ?? (error as Error).message}`;
  }
};

function baseMeta(rel: string, location: VaultLocation, stats: Stats | null): VaultFileMeta {
  // A project's `.claude/CLAUDE.md` is told apart from its `CLAUDE.md` by the path in the project.
  const name = projectInstructionPath(rel)?.inner ?? rel.split('/').at(-1)!;
  return {
    path: rel,
    scope: location.scope,
    projectSlug: location.projectSlug,
    title: location.scope === 'transcript' || location.scope === 'session-notes' ? (location.sessionId ?? name) : name,
    description: null,
    type: null,
    size: stats?.size ?? 0,
    mtime: new Date(stats?.mtimeMs ?? 0).toISOString(),
    error: null,
    binary: false,
    tooLarge: false,
  };
}

/**
 * Stats and (within the size limit) reads one vault file. Never throws for the file's own problems:
 * broken links, loops, links out of the vault, unreadable, binary and oversized files come back as
 * metadata with `error`/`binary`/`tooLarge`. Null when the path is not a vault file or is gone.
 */
export async function scanFile(root: string, rel: string, maxBytes: number, projects?: ProjectDirs): Promise<ScannedFile | null> {
  return scanFileSync(root, rel, maxBytes, projects);
}

/**
 * `scanFile` without the thread pool. Vault files are small local files (at most `maxFileBytes`), and
 * a blocking read of one costs a fraction of the four thread-pool round trips of `fs.promises`
 * (open, stat, read, close): the 10,000-file open of docs/memory.md#vault-upkeep `vault-ready` reads them in slices this
 * way (`forEachSlice`), yielding to the event loop between slices.
 */
export function scanFileSync(root: string, rel: string, maxBytes: number, projects?: ProjectDirs): ScannedFile | null {
  const location = classifyVaultPath(rel);
  const place = location && placeOf(root, rel, projects);
  if (!location || !place) return null;
  const { abs, base } = place;
  let lstat: Stats;
  try {
    lstat = lstatSync(abs);
  } catch {
    return null;
  }
  const fail = (message: string, stats: Stats | null): ScannedFile => ({
    meta: { ...baseMeta(rel, location, stats), error: message },
    location,
    text: null,
    hash: null,
    parsed: null,
    ino: lstat.ino,
  });
  let stats = lstat;
  // A project file's folders may be links too (`.claude` → elsewhere), so its real path is always checked.
  if (lstat.isSymbolicLink() || place.inProject) {
    try {
      const target = realpathSync(abs);
      // A link is followed only while it stays inside the vault, or inside its project (docs/memory.md#vault-upkeep "Bad input").
      if (!isInside(base, target)) return fail(`Symbolic link to outside the ${place.inProject ? 'project' : 'vault'}: not followed`, lstat);
      stats = statSync(target);
    } catch (error) {
      return fail(errnoMessage(error), lstat);
    }
  }
  if (!stats.isFile()) return stats.isDirectory() ? null : fail('Not a regular file', stats);
  const meta = baseMeta(rel, location, stats);
  if (stats.size > maxBytes) {
    meta.tooLarge = true;
    return { meta, location, text: null, hash: null, parsed: null, ino: lstat.ino };
  }
  let buffer: Buffer;
  try {
    buffer = readFileSync(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return fail(errnoMessage(error), stats);
  }
  const text = decodeText(buffer);
  if (text === null) {
    meta.binary = true;
    return { meta, location, text: null, hash: sha256(buffer), parsed: null, ino: lstat.ino };
  }
  let parsed: ParsedMarkdown | null = null;
  if (rel.endsWith('.md')) {
    parsed = parseMarkdown(text, isMemoryFile(rel, location.scope));
    meta.error = parsed.frontmatterError;
    if (parsed.frontmatter) {
      if (parsed.frontmatter.name.trim()) meta.title = parsed.frontmatter.name.trim();
      meta.description = parsed.frontmatter.description.trim() || null;
      meta.type = memoryTypeOf(parsed.frontmatter.type.trim());
    }
    const extras = isMemoryFile(rel, location.scope) ? memoryExtras(parsed.memory) : undefined;
    if (extras) meta.memory = extras;
  }
  if (location.scope === 'session-notes' || location.scope === 'transcript') {
    // A conversation and its notes are named as the chat names the conversation (conversationTitle).
    const folder = path.join(root, 'projects', location.projectSlug!);
    const title =
      location.scope === 'transcript'
        ? transcriptTitle(text, path.join(folder, location.sessionId!, 'session-memory', 'summary.md'))
        : notesTitle(text, path.join(folder, `${location.sessionId}.jsonl`));
    if (title) meta.title = title;
  }
  return { meta, location, text, hash: sha256(buffer), parsed, ino: lstat.ino };
}

/**
 * Every vault file below the root (relative paths with `/`), skipping ignored folders and never
 * descending through a symbolic link, so a loop or a link out of the vault cannot be walked.
 * Folders are listed synchronously (a vault has few of them), yielding between them.
 */
export async function walkVault(root: string): Promise<string[]> {
  const out: string[] = [];
  const pending = [''];
  for (let listed = 1; pending.length > 0; listed++) {
    const dirRel = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dirRel ? path.join(root, dirRel) : root, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (isIgnoredRelative(rel)) continue;
      if (entry.isDirectory()) pending.push(rel);
      else if (classifyVaultPath(rel)) out.push(rel);
    }
    if (listed % 16 === 0) await yieldToLoop();
  }
  return out.map(toVaultPath).sort();
}

/** The instruction files present in a project folder (project-relative, `/`), links included. */
export function listProjectInstructions(dir: string): string[] {
  const out: string[] = [];
  const present = (inner: string) => {
    try {
      lstatSync(path.join(dir, ...inner.split('/')));
      return true;
    } catch {
      return false;
    }
  };
  for (const inner of ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md']) if (present(inner)) out.push(inner);
  let rules: string[] = [];
  try {
    rules = readdirSync(path.join(dir, '.claude', 'rules'));
  } catch {
    // No rules folder.
  }
  for (const name of rules) if (isProjectInstructionFile(`.claude/rules/${name}`)) out.push(`.claude/rules/${name}`);
  return out.sort();
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The longest a slice holds the event loop: the page, its socket and the app's requests wait no longer. */
const SLICE_MS = 12;

/**
 * Runs the synchronous `fn` over items in slices of at most `size` items and `SLICE_MS`, yielding to
 * the event loop between slices, so a 10,000-file pass never holds the loop for more than a few
 * milliseconds at a time — on a loaded machine too, where a fixed count of files took 300 ms a slice
 * and held the first page and the projects list back (docs/architecture.md#start).
 */
export async function forEachSlice<T>(items: readonly T[], size: number, fn: (item: T, index: number) => void): Promise<void> {
  let sliceStart = performance.now();
  let inSlice = 0;
  for (let i = 0; i < items.length; i++) {
    if (inSlice >= size || (inSlice > 0 && performance.now() - sliceStart >= SLICE_MS)) {
      await yieldToLoop();
      sliceStart = performance.now();
      inSlice = 0;
    }
    fn(items[i]!, i);
    inSlice++;
  }
}

/**
 * A pause for a long computation (Health's first pass, docs/memory.md#vault-upkeep): call it often;
 * it returns a turn of the event loop once `SLICE_MS` have passed since the last, otherwise null.
 */
export function slicePause(): () => Promise<void> | null {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < SLICE_MS) return null;
    return yieldToLoop().then(() => {
      sliceStart = performance.now();
    });
  };
}
