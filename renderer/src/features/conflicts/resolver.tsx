import { useEffect, useState } from 'react';
import type { ConflictView } from '../../../../common/domain/team';
import { api } from '../../bridge';
import { resolveConflict } from '../../bridge/team-actions';
import { useStore } from '../../store';
import { MergeEditor } from './merge-editor';
import { ReadOnlyPane } from './read-only-pane';

/** "Lee, 4 Dec 2026 at 14:05", or what is known of it. */
export function whoAndWhen(view: Pick<ConflictView, 'theirsBy' | 'theirsAt'>): string {
  const who = view.theirsBy ?? 'A teammate';
  const at = view.theirsAt ? new Date(view.theirsAt) : null;
  if (!at || Number.isNaN(at.getTime())) return who;
  const day = at.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${who}, ${day} at ${time}`;
}

/**
 * One conflict: mine (the editable result) beside theirs, changes highlighted, each of their chunks
 * one click to take; the base one click away. Says who made the other change and when.
 */
export function Resolver({ project, keyName }: { project: string; keyName: string }) {
  const [view, setView] = useState<ConflictView | null>(null);
  const [merged, setMerged] = useState<string | null>(null);
  const [showBase, setShowBase] = useState(false);
  useEffect(() => {
    setMerged(null);
    setView(null);
    setShowBase(false);
    void api.invoke['team:read-conflict']({ project, key: keyName }).then((r) =>
      r.ok ? setView(r.value) : useStore.getState().showError(r.error),
    );
  }, [project, keyName]);
  if (!view) return <p className="muted">Opening the conflict…</p>;
  const docKey = `${project}:${keyName}`;
  const other = whoAndWhen(view);
  return (
    <section className="resolver" aria-labelledby="resolver-heading">
      <div className="row resolver-head">
        <h2 id="resolver-heading">{keyName}</h2>
        <button type="button" className="button ghost" onClick={() => useStore.getState().openConflict(null)}>
          Back to the list
        </button>
      </div>
      <p className="muted small">
        You and {view.theirsBy ?? 'a teammate'} both changed the same lines since the last sync. Nothing is lost: your version
        stays in place until you choose. Edit yours on the left, or take their changes chunk by chunk with the arrows.
        {view.mine === null ? ' You deleted it; they edited it.' : ''}
        {view.theirs === null ? ' They deleted it; you edited it.' : ''}
      </p>
      <div className="merge-labels">
        <span>Mine — the result</span>
        <span className="theirs-label">Theirs — changed by {other}</span>
      </div>
      <MergeEditor docKey={docKey} mine={view.mine ?? ''} theirs={view.theirs ?? ''} onResult={setMerged} />
      <div className="row">
        <button type="button" className="button ghost small" aria-expanded={showBase} onClick={() => setShowBase(!showBase)}>
          {showBase ? 'Hide the base' : 'Show the base (the last version you both had)'}
        </button>
      </div>
      {showBase && (
        <ReadOnlyPane
          className="base-pane"
          docKey={docKey}
          text={view.base ?? '(no agreed version: the file is new on both sides)'}
          label="Base version (last agreed)"
        />
      )}
      <div className="row end resolver-actions">
        <button type="button" className="button ghost" onClick={() => void resolveConflict(project, keyName, 'theirs')}>
          Keep theirs
        </button>
        <button
          type="button"
          className="button ghost"
          title={keyName === 'MEMORY.md' ? 'Keeps every line of both indexes' : `Keeps theirs as a separate memory named for ${view.theirsBy ?? 'the teammate'}, listed in MEMORY.md`}
          onClick={() => void resolveConflict(project, keyName, 'both')}
        >
          Keep both
        </button>
        <button type="button" className="button secondary" onClick={() => void resolveConflict(project, keyName, 'mine')}>
          Keep mine
        </button>
        <button
          type="button"
          className="button primary"
          disabled={merged === null}
          onClick={() => merged !== null && void resolveConflict(project, keyName, 'merged', merged)}
        >
          Save merged
        </button>
      </div>
    </section>
  );
}
