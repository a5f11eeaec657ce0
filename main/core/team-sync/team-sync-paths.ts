import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * `<vault>/.strata/team-sync/<owner>/<name>/`: bases, state and conflicts of one repository (docs/memory.md#team-memory
 * `.strata/team-sync/<repo>/`). `repo` is a valid `owner/name` (isValidRepo: no `.`/`..` segments).
 */
export function teamSyncStateDir(vaultRoot: string, repo: string): string {
  const [owner, name] = repo.split('/') as [string, string];
  return path.join(vaultRoot, '.strata', 'team-sync', owner, name);
}

/**
 * Moves the state of releases that kept it in `<owner>__<name>/` to `teamSyncStateDir`. Such a name is
 * ambiguous when either part holds `__` (`a__b/c` and `a/b__c` shared a folder): then the old state is
 * left alone and the repository starts fresh, which loses nothing — with no base, equal files are
 * recorded and different ones become conflicts. True when a folder was moved.
 */
export async function migrateLegacyStateDir(vaultRoot: string, repo: string): Promise<boolean> {
  const [owner, name] = repo.split('/') as [string, string];
  if (owner.includes('__') || name.includes('__')) return false;
  const legacy = path.join(vaultRoot, '.strata', 'team-sync', `${owner}__${name}`);
  const current = teamSyncStateDir(vaultRoot, repo);
  const exists = (p: string) => fs.lstat(p).then((s) => s.isDirectory(), () => false);
  if (!(await exists(legacy)) || (await exists(current))) return false;
  await fs.mkdir(path.dirname(current), { recursive: true, mode: 0o700 });
  await fs.rename(legacy, current);
  return true;
}
