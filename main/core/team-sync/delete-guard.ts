import { readLocalTree, type LocalTree } from './local-tree.js';
import type { PushPlan } from './push-plan.js';
import type { SyncState } from './sync-state.js';

/**
 * The mass-delete guard, as Anthropic's own memory-store sync has one: a local deletion reaches the
 * team only after it survives a re-check a little later (an editor's save-by-rename, a checkout or a
 * sync tool briefly removes files), never more than about a quarter of the folder in one sync without
 * the user confirming, and a folder that suddenly empties or vanishes is restored, not pushed.
 */

/** How long a deletion must last before it is pushed. */
export const deleteRecheckMs = 1_500;

/** Files a folder of `known` files may lose in one sync unconfirmed: a quarter, at least 8, at most 50. */
export function massDeleteLimit(known: number): number {
  return Math.min(50, Math.max(8, Math.round(known / 4)));
}

/** Synced files a folder must have had for "all gone at once" to read as an accident rather than a choice. */
const vanishFloor = 3;

/**
 * True when every file this device had synced is gone and nothing else is there: the folder was
 * emptied or removed (an unmounted disk, a wrong move), so the pull brings it back.
 */
export function folderVanished(local: LocalTree, state: SyncState): boolean {
  if (local.size > 0 || local.invalid.length > 0) return false;
  // Files still there but not synced from here (dot-files) show the folder did not vanish.
  if (Object.keys(state.bases).some((key) => local.isIgnored(key))) return false;
  return Object.keys(state.bases).length >= vanishFloor;
}

/**
 * Holds back the plan's deletions when there are more than the limit (all of them: which ones the
 * user meant is theirs to say). Returns the keys held.
 */
export function holdMassDeletions(plan: PushPlan, state: SyncState): string[] {
  const deletions = Object.keys(plan.upload).filter((key) => plan.upload[key] === null);
  if (deletions.length <= massDeleteLimit(Object.keys(state.bases).length)) return [];
  for (const key of deletions) delete plan.upload[key];
  return deletions.sort();
}

/** Drops from the plan every deletion whose file is back after `wait` (the re-check). */
export async function recheckDeletions(plan: PushPlan, teamDir: string, wait: () => Promise<void>): Promise<void> {
  const deletions = Object.keys(plan.upload).filter((key) => plan.upload[key] === null);
  if (deletions.length === 0) return;
  await wait();
  const now = await readLocalTree(teamDir);
  for (const key of deletions) if (now.has(key) || now.isIgnored(key)) delete plan.upload[key];
}
