import type { HistoryVersion } from '../../../common/domain/vault.js';

/** The reason the editor's autosaves are snapshotted under. */
export const AUTOSAVE_REASON = 'autosave';

/**
 * While someone types, the editor saves every second or so; each save would snapshot the text before
 * it and bury History under near-identical versions. A burst of autosaves keeps the one snapshot taken
 * when it began, plus one every five minutes of continuous typing (the interval Obsidian's File
 * recovery uses). Any other writer in between (the agent, a pull, an edit outside Strata) snapshots
 * under its own reason, so it is never folded in.
 */
export const AUTOSAVE_SNAPSHOT_INTERVAL_MS = 5 * 60_000;

export function coalesces(newest: HistoryVersion, reason: string, nowMs: number): boolean {
  if (reason !== AUTOSAVE_REASON || newest.reason !== AUTOSAVE_REASON) return false;
  return nowMs - Date.parse(newest.savedAt) < AUTOSAVE_SNAPSHOT_INTERVAL_MS;
}
