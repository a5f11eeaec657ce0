import { useEffect, useState } from 'react';
import type { HistoryVersion } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { openFile, showFile } from '../../bridge/vault-actions';
import { useStoreShallow, useStore } from '../../store';
import { HistoryDiff } from './history-diff';
import { versionWords, whenWords } from './history-words';
import { indexSkippedToast } from './index-skipped';

async function restoreAndReopen(path: string, hash: string, text: string): Promise<void> {
  const result = await api.invoke['vault:restore']({ path, hash });
  if (!result.ok) return useStore.getState().showError(result.error);
  useStore.getState().showToast({ text });
  await openFile(path);
}

/** The chosen version and the file as it is now, for the side-by-side view. */
type Compared = { hash: string; then: string; now: string } | { hash: string; error: string };

/**
 * Every kept version of the open file, newest first, like a notes app: when, and who changed it;
 * a chosen one beside the current text; restore with Undo.
 */
export function HistoryPanel() {
  const { path, title } = useStoreShallow((s) => ({
    path: s.selectedPath,
    title: s.open?.meta.path === s.selectedPath ? s.open.meta.title : (s.files.find((f) => f.path === s.selectedPath)?.title ?? null),
  }));
  const [versions, setVersions] = useState<HistoryVersion[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [compared, setCompared] = useState<Compared | null>(null);

  useEffect(() => {
    if (!path) return;
    setVersions(null);
    setChosen(null);
    void api.invoke['vault:history']({ path }).then((r) => setVersions(r.ok ? r.value : []));
  }, [path]);

  useEffect(() => {
    if (!path || !chosen) return;
    setCompared(null);
    void Promise.all([api.invoke['vault:read-version']({ path, hash: chosen }), api.invoke['vault:read-file']({ path })]).then(([version, current]) => {
      if (!version.ok) setCompared({ hash: chosen, error: version.error.message });
      // A deleted file compares against nothing.
      else setCompared({ hash: chosen, then: version.value.text, now: current.ok ? current.value.text : '' });
    });
  }, [path, chosen]);

  if (!path) return null;
  // The restore snapshots what it replaces, so Undo is restoring that version in turn.
  const restore = async (hash: string) => {
    const current = await api.invoke['vault:read-file']({ path });
    const result = await api.invoke['vault:restore']({ path, hash });
    if (!result.ok) return useStore.getState().showError(result.error);
    const replaced = current.ok ? current.value.hash : null;
    await openFile(path);
    // A deleted memory brought back whose index line did not fit: that is the news (there was nothing to undo to).
    if (result.value.indexSkipped) return useStore.getState().showToast(indexSkippedToast('Restored this version.', result.value.indexSkipped, showFile));
    useStore.getState().showToast({
      text: 'Restored this version.',
      ...(replaced && replaced !== result.value.hash
        ? { actionLabel: 'Undo', action: () => void restoreAndReopen(path, replaced, 'Back to the version before the restore.') }
        : {}),
    });
  };

  return (
    <section className="history-panel" aria-labelledby="history-heading">
      <header className="file-header">
        <h1 id="history-heading">History of {title ?? path.split('/').pop()}</h1>
        <button type="button" className="button ghost" onClick={() => useStore.getState().setPanel('file')}>
          Back to the file
        </button>
      </header>
      {versions === null && <p className="muted">Reading the history…</p>}
      {versions?.length === 0 && <p className="muted">No earlier versions yet. Each change keeps the version before it for 30 days.</p>}
      <div className="history-layout">
        <ol className="plain-list timeline" aria-label="Earlier versions">
          {versions?.map((v) => (
            <li key={v.hash + v.savedAt}>
              <button type="button" className="tree-file" aria-current={chosen === v.hash ? 'true' : undefined} onClick={() => setChosen(v.hash)}>
                <span>{whenWords(v.savedAt)}</span>
                <span className="muted small">{versionWords(v)}</span>
              </button>
            </li>
          ))}
        </ol>
        {chosen && (
          <div className="history-compare">
            {compared?.hash !== chosen ? (
              <p className="muted">Comparing…</p>
            ) : 'error' in compared ? (
              <p className="banner error">{compared.error}</p>
            ) : (
              <HistoryDiff then={compared.then} now={compared.now} />
            )}
            <div className="row">
              <button type="button" className="button primary" onClick={() => void restore(chosen)}>
                Restore this version
              </button>
              <span className="muted small">What is there now is kept too: Undo, or pick it here later.</span>
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
