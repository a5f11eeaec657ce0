import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DirListing } from '../../../common/domain/app.js';
import { AppFailure } from '../../../common/result.js';

/**
 * One level of folders for the in-app folder chooser (a browser tab cannot open a native dialog).
 * Hidden folders are left out; unreadable entries are skipped rather than failing the listing. With
 * `zips`, `.zip` files are listed too, after the folders (the memory import reads a zip of notes).
 */
export async function listDirs(home: string, requested?: string, zips = false): Promise<DirListing> {
  const target = path.resolve(requested ?? home);
  let real: string;
  try {
    real = await fs.realpath(target);
  } catch {
    throw new AppFailure('not_found', `The folder ${target} does not exist.`);
  }
  let dirents;
  try {
    dirents = await fs.readdir(real, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') throw new AppFailure('not_a_directory', `${real} is not a folder.`);
    throw new AppFailure('permission_denied', `Strata cannot read ${real}.`);
  }
  const entries: DirListing['entries'] = [];
  const zipFiles: DirListing['entries'] = [];
  for (const d of dirents) {
    if (d.name.startsWith('.')) continue;
    const full = path.join(real, d.name);
    const isDir = d.isDirectory() || (d.isSymbolicLink() && (await fs.stat(full).then((s) => s.isDirectory(), () => false)));
    if (isDir) entries.push({ name: d.name, path: full });
    else if (zips && /\.zip$/i.test(d.name) && (await fs.stat(full).then((s) => s.isFile(), () => false))) zipFiles.push({ name: d.name, path: full, zip: true });
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  entries.sort(byName).push(...zipFiles.sort(byName));
  const parent = path.dirname(real);
  return { path: real, parent: parent === real ? null : parent, home, entries };
}
