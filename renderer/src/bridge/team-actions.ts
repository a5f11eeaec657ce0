import type { ConflictChoice } from '../../../common/domain/team';
import type { Result } from '../../../common/result';
import { useStore } from '../store';
import { api } from './index';
import { loadFiles } from './vault-list';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

export function wireTeamEvents(): () => void {
  return api.on['team:did-change-status']((status) => {
    useStore.getState().setTeamStatus(status);
    // Per-file badges change with a sync even when no file does: re-read the list once a run settles.
    if (status.phase !== 'syncing' && useStore.getState().filesLoaded) void loadFiles();
  });
}

/**
 * The team server's authorization page: Electron's window-open handler sends it to the system browser,
 * in host mode it opens in a new tab. Only http(s) pages, and without an opener.
 */
function openSignInPage(url: string): void {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return;
    window.open(parsed.toString(), '_blank', 'noopener,noreferrer');
  } catch {
    // Not a URL: nothing to open.
  }
}

export async function loadTeamStatus(project: string): Promise<void> {
  const status = await api.invoke['team:status']({ project });
  // A project without team memory is not an error worth a banner; the status says why.
  if (status.ok) useStore.getState().setTeamStatus(status.value);
}

export async function signIn(project: string): Promise<void> {
  const status = take(await api.invoke['team:sign-in']({ project }));
  if (!status) return;
  useStore.getState().setTeamStatus(status);
  if (!status.signedIn && status.signInUrl) openSignInPage(status.signInUrl);
}

export async function signOut(project: string): Promise<void> {
  const status = take(await api.invoke['team:sign-out']({ project }));
  if (status) useStore.getState().setTeamStatus(status);
}

export async function syncNow(project: string, confirmDeletions = false): Promise<void> {
  const status = take(await api.invoke['team:sync-now']({ project, ...(confirmDeletions ? { confirmDeletions } : {}) }));
  if (status) useStore.getState().setTeamStatus(status);
}

/**
 * Records the user's choice for a conflict; `title` is what the resolver calls the memory. Keep both
 * comes with Undo, as every other destructive action does: it puts the conflict back as it was.
 */
export async function resolveConflict(project: string, key: string, keep: ConflictChoice, text?: string, title = key): Promise<boolean> {
  const answer = take(await api.invoke['team:resolve-conflict']({ project, key, keep, ...(text !== undefined ? { text } : {}) }));
  if (!answer) return false;
  const { indexSkipped, ...status } = answer;
  const s = useStore.getState();
  s.setTeamStatus(status);
  s.openConflict(null);
  if (keep === 'both') {
    // Undo stays the action: a full index is said, and Health offers the tidy-up that makes room.
    const unlisted = indexSkipped
      ? ` Your copy is not listed in MEMORY.md: the index is at its ${indexSkipped.limit === 'lines' ? `${indexSkipped.maxLines.toLocaleString()}-line` : `${indexSkipped.maxChars.toLocaleString()}-character`} cap.`
      : '';
    s.showToast({
      text: `Kept both versions of ${title}: theirs under its name, yours as a separate memory.${unlisted}`,
      actionLabel: 'Undo',
      action: () => void undoKeepBoth(project, key, title),
    });
  } else s.showToast({ text: `Resolved ${title}; it will be pushed with the next sync.` });
  return true;
}

/** Undo of Keep both: the conflict is back in the inbox, one click from the resolver again. */
async function undoKeepBoth(project: string, key: string, title: string): Promise<void> {
  const s = useStore.getState();
  s.showToast(null);
  const status = take(await api.invoke['team:undo-keep-both']({ project, key }));
  await loadFiles();
  if (!status) return;
  s.setTeamStatus(status);
  s.showToast({ text: `${title} is in conflict again, as before Keep both.`, actionLabel: 'Resolve', action: () => {
      s.setPanel('conflicts');
      s.openConflict({ project, key });
    },
  });
}
