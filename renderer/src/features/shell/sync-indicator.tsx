import { useStoreShallow, useStore } from '../../store';
import { syncNow } from '../../bridge/team-actions';

/** "14:05": when the next sync starts on its own, in the user's clock format. */
export const clockTime = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** Team sync state of the open project, in the status bar: synced, syncing, offline with pending, error. */
export function SyncIndicator() {
  const { project, status } = useStoreShallow((s) => ({
    project: s.activeProject,
    status: s.activeProject ? s.team[s.activeProject] : undefined,
  }));
  if (!project || !status || status.phase === 'disabled' || !status.repo) return null;
  const open = () => {
    const s = useStore.getState();
    s.setScreen('vault');
    s.setPanel('conflicts');
  };
  const conflicts = status.conflicts.length;
  let text: string;
  switch (status.phase) {
    case 'syncing':
      text = status.progress ? `Syncing ${status.progress.done}/${status.progress.total}` : 'Syncing…';
      break;
    case 'offline':
      text = `Offline — ${status.pending} change${status.pending === 1 ? '' : 's'} pending${status.nextSyncAt ? ` · next try ${clockTime(status.nextSyncAt)}` : ''}`;
      break;
    case 'error':
      text = 'Sync failed';
      break;
    default:
      text = status.pending ? `${status.pending} pending` : 'Team memory synced';
  }
  return (
    <span className="sync-indicator">
      <button type="button" className={`link small sync-${status.phase}`} onClick={open} title={status.error ?? status.lastSyncAt ?? ''}>
        {text}
        {conflicts > 0 ? ` · ${conflicts} conflict${conflicts > 1 ? 's' : ''}` : ''}
        {status.blocked.length > 0 ? ` · ${status.blocked.length} blocked` : ''}
      </button>
      {(status.phase === 'error' || status.phase === 'offline') && (
        <button type="button" className="link small" onClick={() => void syncNow(project)}>
          {/* Offline is not a failure: the same words as the team panel's, which says when it tries on its own. */}
          {status.phase === 'offline' ? 'Try now' : 'Retry'}
        </button>
      )}
    </span>
  );
}
