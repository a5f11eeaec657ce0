import path from 'node:path';
import { repoFolderName } from './sync-state.js';

/** `<vault>/.strata/team-sync/<owner>__<name>/`: bases, state and conflicts of one repository (SPEC §5). */
export function teamSyncStateDir(vaultRoot: string, repo: string): string {
  return path.join(vaultRoot, '.strata', 'team-sync', repoFolderName(repo));
}
