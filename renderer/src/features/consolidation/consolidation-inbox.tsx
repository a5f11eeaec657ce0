import { useEffect, useState } from 'react';
import type { ConsolidationChangeset, ConsolidationItem } from '../../../../common/domain/consolidation';
import { api } from '../../bridge';
import { loadChangeset, resolveItems, tidyNow, undoItem } from './consolidation-actions';
import { MemoryChangeDiff } from './memory-change-diff';
import './consolidation.css';
import { formatDateTime } from '../../ui/dates';

const verbs: Record<ConsolidationItem['action'], string> = { created: 'Create', updated: 'Update', deleted: 'Delete' };
const statusText: Record<ConsolidationItem['status'], string> = { pending: '', applied: 'Applied', rejected: 'Rejected', undone: 'Undone' };

/**
 * The tidy-up in the Inbox (docs/memory-upkeep.md "Tidying memory"): one changeset of merges, date
 * fixes, deletions of contradicted facts and index pruning, a diff and a reason per file, accepted or
 * rejected per item or all at once; an applied change can be undone.
 */
export function ConsolidationInbox({ project }: { project: string }) {
  const [changeset, setChangeset] = useState<ConsolidationChangeset | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void loadChangeset(project).then((c) => live && setChangeset(c));
    const off = api.on['memory:did-change-consolidation']((e) => {
      if (e.project === project) setChangeset(e.changeset);
    });
    return () => {
      live = false;
      off();
    };
  }, [project]);
  const act = (fn: () => Promise<ConsolidationChangeset | null>) => {
    setBusy(true);
    void fn()
      .then((c) => c && setChangeset(c))
      .finally(() => setBusy(false));
  };
  const pending = changeset?.items.filter((i) => i.status === 'pending') ?? [];

  return (
    <section className="consolidation" aria-labelledby="tidy-heading">
      <div className="row">
        <h2 id="tidy-heading">Tidying memory</h2>
        <button type="button" className="button secondary" disabled={busy} onClick={() => act(() => tidyNow(project))}>
          {busy ? 'Working…' : 'Tidy memory now'}
        </button>
      </div>
      {!changeset || changeset.items.length === 0 ? (
        <p className="muted small">
          Now and then Strata looks over this project’s memories for duplicates, relative dates and facts that stopped being true, and
          proposes changes here. Nothing changes until you accept.
        </p>
      ) : (
        <>
          <p className="small">
            Proposed {formatDateTime(changeset.createdAt)} — {pending.length} of {changeset.items.length} waiting.
          </p>
          {pending.length > 0 && (
            <div className="row">
              <button type="button" className="button ghost" disabled={busy} onClick={() => act(() => resolveItems(project, changeset.id, [], pending.map((i) => i.id)))}>
                Reject all
              </button>
              <button type="button" className="button primary" disabled={busy} onClick={() => act(() => resolveItems(project, changeset.id, pending.map((i) => i.id), []))}>
                Accept all
              </button>
            </div>
          )}
          <ul className="plain-list">
            {changeset.items.map((item) => (
              <li key={item.id}>
                <article className="memory-card" aria-label={`${verbs[item.action]}: ${item.title}`}>
                  <div className="memory-head">
                    <span className="memory-verb">{verbs[item.action]}</span>
                    <strong>{item.title}</strong>
                    {item.status !== 'pending' && <span className="badge">{statusText[item.status]}</span>}
                  </div>
                  <p className="consolidation-reason">{item.reason}</p>
                  <MemoryChangeDiff before={item.before} after={item.after} />
                  <div className="row end">
                    {item.status === 'pending' && (
                      <>
                        <button type="button" className="button ghost" disabled={busy} onClick={() => act(() => resolveItems(project, changeset.id, [], [item.id]))}>
                          Reject
                        </button>
                        <button type="button" className="button primary" disabled={busy} onClick={() => act(() => resolveItems(project, changeset.id, [item.id], []))}>
                          Accept
                        </button>
                      </>
                    )}
                    {item.status === 'applied' && (
                      <button type="button" className="button secondary" disabled={busy} onClick={() => act(() => undoItem(project, changeset.id, item.id))}>
                        Undo
                      </button>
                    )}
                  </div>
                </article>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
