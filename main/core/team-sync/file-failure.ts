import type { FileFailure } from './sync-types.js';

/**
 * A file-system or server refusal of one file as the user reads it: the reason and what to do. Only
 * this file waits; the sync goes on with the others and tries this one again at the next run.
 */
export function describeFileFailure(key: string, step: FileFailure['step'], error: unknown): FileFailure {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const [reason, advice] = ((): [string, string] => {
    switch (code) {
      case 'ENAMETOOLONG':
        return ['its name is longer than this disk allows', 'ask the teammate who added it to give it a shorter name'];
      case 'EISDIR':
      case 'ENOTDIR':
      case 'EEXIST':
        return ['a file and a folder here share its name', 'rename one of them; the other syncs as it is'];
      case 'EACCES':
      case 'EPERM':
      case 'EROFS':
        return ['Strata may not write it here', "check the team folder's permissions"];
      case 'ENOSPC':
      case 'EDQUOT':
        return ['the disk is full', 'free some space; it syncs at the next run'];
      default:
        return [(error as Error | null)?.message ?? String(error), 'it is tried again at the next sync'];
    }
  })();
  return { key, step, reason, advice };
}
