import { useEffect, useState } from 'react';
import { api } from '../../bridge';
import { loadFiles, openFile, showFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { useFileName } from './file-name';
import { formatDateTime } from '../../ui/dates';
import { indexSkippedToast } from './index-skipped';

type Deleted = { path: string; deletedAt: string; hash: string };

/** Files deleted from the vault that the history still holds, each back in one click. */
export function DeletedPanel() {
  const name = useFileName();
  const [list, setList] = useState<Deleted[] | null>(null);
  useEffect(() => {
    void api.invoke['vault:list-deleted']({}).then((r) => {
      if (r.ok) setList([...r.value].sort((a, b) => b.deletedAt.localeCompare(a.deletedAt)));
      else {
        useStore.getState().showError(r.error);
        setList([]);
      }
    });
  }, []);
  const restore = async (d: Deleted) => {
    const result = await api.invoke['vault:restore']({ path: d.path, hash: d.hash });
    if (!result.ok) return useStore.getState().showError(result.error);
    await loadFiles();
    await openFile(d.path);
    const done = `Restored “${result.value.meta.title}”.`;
    useStore.getState().showToast(result.value.indexSkipped ? indexSkippedToast(done, result.value.indexSkipped, showFile) : { text: done });
  };
  return (
    <section aria-labelledby="deleted-heading">
      <h1 id="deleted-heading">Recently deleted</h1>
      {list === null && <p className="muted">Reading the history…</p>}
      {list?.length === 0 && <p className="muted">Nothing deleted is waiting here. Deleted memories stay restorable for 30 days.</p>}
      <ul className="plain-list">
        {list?.map((d) => (
          <li key={d.path + d.deletedAt} className="row">
            <span className="grow" title={d.path}>
              {name(d.path)} <span className="muted small">deleted {formatDateTime(d.deletedAt)}</span>
            </span>
            <button type="button" className="button secondary" aria-label={`Restore ${name(d.path)}`} onClick={() => void restore(d)}>
              Restore
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
