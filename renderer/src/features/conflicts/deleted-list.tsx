import { useEffect, useState } from 'react';
import type { DeletedTeamFile } from '../../../../common/domain/team';
import { api } from '../../bridge';
import { showFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { formatDay } from '../../ui/dates';
import { indexSkippedToast } from '../vault/index-skipped';

/**
 * Team memories deleted here or by a teammate, each with Restore while its tombstone is kept (30 days,
 * docs/memory.md#team-memory): a deletion that reached this machine always has a way back.
 */
export function DeletedList({ project, lastSyncAt }: { project: string; lastSyncAt: string | null }) {
  const [deleted, setDeleted] = useState<DeletedTeamFile[]>([]);
  useEffect(() => {
    void api.invoke['team:list-deleted']({ project }).then((r) => r.ok && setDeleted(r.value));
  }, [project, lastSyncAt]);
  if (deleted.length === 0) return null;
  const restore = async (key: string) => {
    const r = await api.invoke['team:restore-deleted']({ project, key });
    if (r.ok) {
      setDeleted(r.value.deleted);
      const done = `Restored ${key}; it will be shared again on the next sync.`;
      useStore.getState().showToast(r.value.indexSkipped ? indexSkippedToast(done, r.value.indexSkipped, showFile) : { text: done });
    } else useStore.getState().showError(r.error);
  };
  return (
    <>
      <h2>Recently deleted</h2>
      <ul className="plain-list">
        {deleted.map((d) => (
          <li key={d.key}>
            <code>{d.key}</code> — deleted {d.by === 'remote' ? 'by a teammate' : 'here'} on {formatDay(d.deletedAt)}{' '}
            <button type="button" className="link" onClick={() => void restore(d.key)}>
              Restore
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
