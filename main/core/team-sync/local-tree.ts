import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { hashText, isValidTeamKey, teamKeyProblem } from './team-key.js';

/** One file of the team folder as read now: its hash is what the decision table compares. */
export interface LocalFile {
  key: string;
  text: string;
  hash: string;
  bytes: number;
}

/** The file a key names; null for a key that would leave the folder (sync-reliability §5 test 12). */
export function keyToPath(teamDir: string, key: string): string | null {
  if (!isValidTeamKey(key)) return null;
  const file = path.resolve(teamDir, ...key.split('/'));
  return file.startsWith(path.resolve(teamDir) + path.sep) ? file : null;
}

/** A file whose name the server refuses (SPEC §5 key rules): it can never sync as named. */
export interface InvalidName {
  key: string;
  /** The validator's clause: "it contains a backslash". */
  reason: string;
}

/**
 * Every regular file under the team folder. Dot-files (our own temp files among them) and symlinks are
 * not team memory. Keys the server would refuse are left out of the tree, so they never fail a batch,
 * and listed in `invalid` when given, so the user learns why they do not sync.
 */
export async function readLocalTree(teamDir: string, invalid?: InvalidName[]): Promise<Map<string, LocalFile>> {
  const out = new Map<string, LocalFile>();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.name.startsWith('.')) return;
        const key = prefix + entry.name;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return walk(full, `${key}/`);
        if (!entry.isFile()) return;
        const problem = teamKeyProblem(key);
        if (problem) {
          invalid?.push({ key, reason: problem });
          return;
        }
        const file = await readLocalFile(teamDir, key, full);
        if (file) out.set(key, file);
      }),
    );
  };
  await walk(teamDir, '');
  return out;
}

/** One file, or null when it does not exist (or stopped existing while being read). */
export async function readLocalFile(teamDir: string, key: string, known?: string): Promise<LocalFile | null> {
  const file = known ?? keyToPath(teamDir, key);
  if (!file) return null;
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile()) return null;
    const text = await fs.readFile(file, 'utf8');
    return { key, text, hash: hashText(text), bytes: Buffer.byteLength(text, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Writes a pulled file atomically and stamps the server's `lastModified` as its mtime (issue 8: recall's
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
  const file = keyToPath(teamDir, key);
  if (!file) throw new Error(`refusing to write the unsafe key ${JSON.stringify(key)}`);
  const dir = path.dirname(file);
  let check = checked?.get(dir);
  if (!check) {
    check = checkFolder(teamDir, dir, key);
    checked?.set(dir, check);
  }
  await check;
  if (!(await writeFileAtomic(file, text, { beforeRename }))) return false;
  if (mtime && !Number.isNaN(mtime.getTime())) await fs.utimes(file, mtime, mtime);
  return true;
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
