import { promises as fs } from 'node:fs';
import path from 'node:path';
import { legacySlug, slug } from './slug.js';

const exists = (p: string) => fs.lstat(p).then(() => true, () => false);

/** Moves what `from` holds into `to`, entry by entry; an entry `to` already has stays where it is. */
async function moveMissing(from: string, to: string): Promise<void> {
  if (!(await exists(to))) {
    await fs.rename(from, to);
    return;
  }
  const [fromStat, toStat] = await Promise.all([fs.lstat(from), fs.lstat(to)]);
  if (!fromStat.isDirectory() || !toStat.isDirectory()) return;
  for (const name of await fs.readdir(from)) await moveMissing(path.join(from, name), path.join(to, name));
  // Left in place only when something collided; an emptied folder goes.
  await fs.rmdir(from).catch(() => undefined);
}

/**
 * Earlier Strata versions named a project's folder with `legacySlug` (FNV-1a), which differs from
 * Claude Code's name for paths over 200 characters. The old folder's transcripts,
 * notes and memories are moved under the current name (each a rename, so nothing is copied half-way);
 * anything the current folder already holds under the same name wins and the old copy stays put.
 */
export async function migrateLegacyProjectFolder(vaultRoot: string, realPath: string): Promise<void> {
  const legacy = legacySlug(realPath);
  const current = slug(realPath);
  if (legacy === current) return;
  const from = path.join(vaultRoot, 'projects', legacy);
  if (!(await exists(from))) return;
  await fs.mkdir(path.join(vaultRoot, 'projects'), { recursive: true });
  await moveMissing(from, path.join(vaultRoot, 'projects', current));
}
