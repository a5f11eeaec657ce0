import { promises as fs, readFile } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeFileAtomic, type WriteBatch } from '../fs/index.js';
import { KeySpace } from '../../../common/team-memory/index.js';
import { hashText, isValidTeamKey, teamKeyProblem } from './team-key.js';

/** One file of the team folder as read now: its hash is what the decision table compares. */
export interface LocalFile {
  key: string;
  text: string;
  hash: string;
  bytes: number;
}

/** The file a key names; null for a key that would leave the folder (docs/sync-protocol.md#a-client-that-loses-nothing test 12). */
export function keyToPath(teamDir: string, key: string): string | null {
  if (!isValidTeamKey(key)) return null;
  const file = path.resolve(teamDir, ...key.split('/'));
  return file.startsWith(path.resolve(teamDir) + path.sep) ? file : null;
}

/** A file whose name the server refuses (docs/memory.md#team-memory key rules): it can never sync as named. */
export interface InvalidName {
  key: string;
  /** The validator's clause: "it contains a backslash". */
  reason: string;
}

/**
 * The team folder as one read sees it: the files that sync, plus what is on disk but not synced.
 * Whatever exists but is left out (dot-files and dot-folders, our temp files, symlinks, names the server
 * refuses) is never mistaken for a deletion: the push only deletes a key whose path is truly gone.
 */
export class LocalTree extends Map<string, LocalFile> {
  readonly invalid: InvalidName[] = [];
  /** Keys present on disk but not synced from here. */
  readonly ignored = new Set<string>();
  /** Folder keys (`.obsidian`) left out with everything under them. */
  readonly ignoredFolders = new Set<string>();

  /** True when `key` names something on disk that this tree deliberately left out. */
  isIgnored(key: string): boolean {
    if (this.ignored.has(key)) return true;
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) if (this.ignoredFolders.has(parts.slice(0, i).join('/'))) return true;
    return false;
  }
}

/**
 * Every regular file under the team folder. Dot-files (our own temp files among them) and symlinks are
 * not team memory. Keys the server would refuse are left out of the tree, so they never fail a batch,
 * and listed in `invalid`, so the user learns why they do not sync; of two names that one
 * case-insensitive file system would make one file, the first in sort order syncs and the other is
 * listed (common/team-memory/key-space).
 */
export async function readLocalTree(teamDir: string, written?: WrittenFiles): Promise<LocalTree> {
  const tree = new LocalTree();
  const candidates: [string, string][] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        const key = prefix + entry.name;
        const full = path.join(dir, entry.name);
        if (entry.name.startsWith('.')) {
          if (entry.isDirectory()) tree.ignoredFolders.add(key);
          else tree.ignored.add(key);
          return;
        }
        if (entry.isDirectory()) return walk(full, `${key}/`);
        if (!entry.isFile()) {
          tree.ignored.add(key);
          return;
        }
        candidates.push([key, full]);
      }),
    );
  };
  await walk(teamDir, '');
  const space = new KeySpace();
  const accepted: [string, string][] = [];
  for (const [key, full] of candidates.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const problem = teamKeyProblem(key) ?? space.problem(key);
    if (problem) {
      tree.invalid.push({ key, reason: problem });
      tree.ignored.add(key);
      continue;
    }
    space.add(key);
    accepted.push([key, full]);
  }
  await Promise.all(
    accepted.map(async ([key, full]) => {
      const file = await readLocalFile(teamDir, key, full, written);
      if (file) tree.set(key, file);
    }),
  );
  return tree;
}

/**
 * Files a sync run wrote itself (a pull's downloads, stamped with the server's time). A later read of the
 * tree in the same run takes one whose size and mtime are still what was written as that text instead of
 * reading and hashing it again: rsync's and git's quick check. Any other write changes the mtime (to now,
 * not the server's past time), so an edit made meanwhile is still read.
 */
export class WrittenFiles {
  private readonly files = new Map<string, { file: LocalFile; mtimeMs: number }>();

  note(file: LocalFile, mtime: Date): void {
    this.files.set(file.key, { file, mtimeMs: mtime.getTime() });
  }

  /** The file as written, if `stat` still shows it; undefined when it must be read. */
  unchanged(key: string, stat: { size: number; mtimeMs: number }): LocalFile | undefined {
    const known = this.files.get(key);
    // Within a millisecond: the time goes to disk as seconds and nanoseconds and comes back as a float.
    if (!known || known.file.bytes !== stat.size || Math.abs(known.mtimeMs - stat.mtimeMs) >= 1) return undefined;
    return known.file;
  }
}

// The callback readFile, not the promise one: that one goes through a FileHandle and costs about twice
// as much per file (the tree is read whole at every sync; bench sync-first-pull).
const readText = promisify(readFile);

/** One file, or null when it does not exist (or stopped existing while being read). */
export async function readLocalFile(teamDir: string, key: string, known?: string, written?: WrittenFiles): Promise<LocalFile | null> {
  const file = known ?? keyToPath(teamDir, key);
  if (!file) return null;
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile()) return null;
    const same = written?.unchanged(key, stat);
    if (same) return same;
    const text = await readText(file, 'utf8');
    return { key, text, hash: hashText(text), bytes: Buffer.byteLength(text, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes a pulled file atomically and stamps the server's `lastModified` as its mtime (docs/memory.md#team-sync: recall's
 * "saved N days ago" stays true). Refuses a path whose folders include a symlink leaving the team folder.
 * Resolves false when `beforeRename` refused (the file is left as it is).
 */
export async function writeLocalFile(
  teamDir: string,
  key: string,
  text: string,
  mtime: Date | null,
  /** Folders already checked during this run (a pull writes thousands of files into a few folders). */
  checked?: Map<string, Promise<void>>,
  beforeRename?: () => Promise<boolean>,
): Promise<boolean> {
  const file = await checkedPath(teamDir, key, checked);
  if (!(await writeFileAtomic(file, text, { beforeRename }))) return false;
  if (mtime && !Number.isNaN(mtime.getTime())) await fs.utimes(file, mtime, mtime);
  return true;
}

/** A file of a pull written with many others (`WriteBatch`): staged now, renamed into place after the batch's flush. */
export interface StagedFile {
  key: string;
  file: string;
  temp: string;
}

/**
 * Writes `text` beside the key's file; nothing is visible at the key until `commitLocalFile`. A file that
 * replaces one keeps its mode; `expectNew` (nothing there when the pull planned it) skips that lookup.
 */
export async function stageLocalFile(teamDir: string, key: string, text: string, batch: WriteBatch, checked: Map<string, Promise<void>>, expectNew: boolean): Promise<StagedFile> {
  const file = await checkedPath(teamDir, key, checked);
  const mode = expectNew ? undefined : await fs.stat(file).then((stat) => stat.mode & 0o777, () => undefined);
  return { key, file, temp: await batch.stage(file, text, mode) };
}

/** Renames a staged file into place (after `beforeRename`, as writeLocalFile) and stamps the server's time. */
export async function commitLocalFile(batch: WriteBatch, staged: StagedFile, mtime: Date | null, beforeRename?: () => Promise<boolean>): Promise<boolean> {
  if (!(await batch.commit(staged.temp, staged.file, beforeRename))) return false;
  if (mtime && !Number.isNaN(mtime.getTime())) await fs.utimes(staged.file, mtime, mtime);
  return true;
}

/** The key's path, its folder made and checked once per run: no symlink on the way leaves the team folder. */
async function checkedPath(teamDir: string, key: string, checked?: Map<string, Promise<void>>): Promise<string> {
  const file = keyToPath(teamDir, key);
  if (!file) throw new Error(`refusing to write the unsafe key ${JSON.stringify(key)}`);
  const dir = path.dirname(file);
  let check = checked?.get(dir);
  if (!check) {
    check = checkFolder(teamDir, dir, key);
    checked?.set(dir, check);
  }
  await check;
  return file;
}

async function checkFolder(teamDir: string, dir: string, key: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const realTeam = await fs.realpath(teamDir);
  const realParent = await fs.realpath(dir);
  if (realParent !== realTeam && !realParent.startsWith(realTeam + path.sep)) {
    throw new Error(`refusing to write ${JSON.stringify(key)}: its folder leaves the team folder`);
  }
}

export async function removeLocalFile(teamDir: string, key: string): Promise<void> {
  const file = keyToPath(teamDir, key);
  if (file) await fs.rm(file, { force: true });
}
