import { useEffect, useState } from 'react';
import type { HistoryVersion } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { openFile } from '../../bridge/vault-actions';
import { useStoreShallow, useStore } from '../../store';

function DiffView({ diff }: { diff: string }) {
  return (
    <pre className="diff" aria-label="Changes from this version to now">
      {diff.split('\n').map((line, i) => (
        <span key={i} className={line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

async function restoreAndReopen(path: string, hash: string, text: string): Promise<void> {
  const result = await api.invoke['vault:restore']({ path, hash });
  if (!result.ok) return useStore.getState().showError(result.error);
  useStore.getState().showToast({ text });
  await openFile(path);
}

/** Every saved version of the open file, newest first, with a readable diff and one-click restore. */
export function HistoryPanel() {
  const { path } = useStoreShallow((s) => ({ path: s.selectedPath }));
  const [versions, setVersions] = useState<HistoryVersion[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [diff, setDiff] = useState<string | null>(null);

  useEffect(() => {
    if (!path) return;
    setVersions(null);
    void api.invoke['vault:history']({ path }).then((r) => setVersions(r.ok ? r.value : []));
  }, [path]);

  useEffect(() => {
    if (!path || !chosen) return;
    void api.invoke['vault:read-version']({ path, hash: chosen }).then((r) => setDiff(r.ok ? r.value.diff : r.error.message));
  }, [path, chosen]);

  if (!path) return null;
  // The restore snapshots what it replaces, so Undo is restoring that version in turn.
  const restore = async (hash: string) => {
    const current = await api.invoke['vault:read-file']({ path });
    const result = await api.invoke['vault:restore']({ path, hash });
    if (!result.ok) return useStore.getState().showError(result.error);
    const replaced = current.ok ? current.value.hash : null;
    useStore.getState().showToast({
      text: 'Restored this version.',
      ...(replaced && replaced !== result.value.hash
        ? { actionLabel: 'Undo', action: () => void restoreAndReopen(path, replaced, 'Back to the version before the restore.') }
        : {}),
    });
    await openFile(path);
  };

  return (
    <section className="history-panel" aria-labelledby="history-heading">
      <header className="file-header">
        <h1 id="history-heading">History of {path.split('/').pop()}</h1>
        <button type="button" className="button ghost" onClick={() => useStore.getState().setPanel('file')}>
          Back to the file
        </button>
      </header>
      {versions === null && <p className="muted">Reading the history…</p>}
      {versions?.length === 0 && <p className="muted">No earlier versions yet. Each change made in Strata keeps the version before it for 30 days.</p>}
      <div className="history-layout">
        <ol className="plain-list timeline">
          {versions?.map((v) => (
            <li key={v.hash + v.savedAt}>
              <button type="button" className="tree-file" aria-current={chosen === v.hash ? 'true' : undefined} onClick={() => setChosen(v.hash)}>
                <span>{new Date(v.savedAt).toLocaleString()}</span>
                <span className="muted small">
                  {v.reason} · {v.size} bytes
                </span>
              </button>
            </li>
          ))}
        </ol>
        {chosen && (
          <div className="grow">
            {diff === null ? <p className="muted">Comparing…</p> : <DiffView diff={diff} />}
            <button type="button" className="button primary" onClick={() => void restore(chosen)}>
              Restore this version
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
