import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The private temp folders of incognito conversations (incognito.ts): `<temp>/strata-incognito-XXXXXX`. */
export const INCOGNITO_PREFIX = 'strata-incognito-';
/** Written first into each such folder: `{ "pid": <the owning process> }`. */
export const INCOGNITO_OWNER_FILE = 'strata-owner.json';

/** mkdtemp's six random characters after the prefix. */
const FOLDER_NAME = /^strata-incognito-[A-Za-z0-9]{6}$/;
/** What an incognito folder holds at its top: the owner file, project-slug folders and `.state`. */
const EXPECTED_ENTRY = /^(?:\.state|[A-Za-z0-9-]+)$/;

/** True while a process with this id exists (EPERM: it exists but is another user's). */
export function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes incognito folders a crashed Strata left in the temp folder (docs/memory.md#pause-and-incognito);
 * a normal quit removes its own. Only a folder that is certainly one of them goes: the exact name shape, a
 * real directory of this user (not a link), an owner file naming a process that is no longer running (a
 * running Strata — another window, the host, a test — keeps its folder), and nothing at its top but what
 * Strata writes there. Anything else is left alone. Returns the folders removed.
 */
export async function sweepIncognitoLeftovers(tempDir: string = os.tmpdir(), isRunning: (pid: number) => boolean = processIsRunning): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fs.readdir(tempDir)) {
    if (!FOLDER_NAME.test(name)) continue;
    const dir = path.join(tempDir, name);
    if (!(await isCrashLeftover(dir, isRunning))) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

async function isCrashLeftover(dir: string, isRunning: (pid: number) => boolean): Promise<boolean> {
  try {
    const stat = await fs.lstat(dir);
    if (!stat.isDirectory()) return false;
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) return false;
    const ownerFile = path.join(dir, INCOGNITO_OWNER_FILE);
    if (!(await fs.lstat(ownerFile)).isFile()) return false;
    const owner = JSON.parse(await fs.readFile(ownerFile, 'utf8')) as { pid?: unknown };
    const pid = owner.pid;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
    if (pid === process.pid || isRunning(pid)) return false;
    const entries = await fs.readdir(dir, { withFileTypes: true });
    return entries.every((e) => e.name === INCOGNITO_OWNER_FILE || (e.isDirectory() && EXPECTED_ENTRY.test(e.name)));
  } catch {
    // Unreadable, vanished meanwhile, or an owner file that is not ours: not certainly a leftover.
    return false;
  }
}
