import { useId, useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { api } from '../../bridge';
import { openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { DiffView } from '../../ui/diff-view';
import { ageText } from './age-text';

type MemoryItem = Extract<ChatItem, { kind: 'memory' }>;

/**
 * Every memory the agent writes or deletes shows here as it happens: the file, its type, the diff,
 * and Undo / Edit / "don't remember things like this".
 */
export function MemoryCard({ item, project, sessionId }: { item: MemoryItem; project: string; sessionId: string }) {
  const [open, setOpen] = useState(false);
  // The card's state comes from main (recorded in the transcript), so every window and a reopened
  // conversation agree, wherever the change was undone or decided.
  const undone = item.state === 'undone';
  const [undoProblem, setUndoProblem] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  const s = useStore.getState();
  const decided = item.state === 'accepted' || item.state === 'rejected' ? item.state : null;
  if (item.proposalId) {
    // Decided elsewhere meanwhile (another process, the CLI): the card says so instead of an error banner.
    const decide = async (decision: 'accept' | 'reject') => {
      const result = await api.invoke['memory:resolve-proposal']({ project, id: item.proposalId!, decision });
      if (result.ok) useStore.getState().setProposals(project, result.value);
      else if (result.error.code === 'not_found') setGone(true);
      else s.showError(result.error);
    };
    return (
      <div className="memory-card" role="group" aria-label={`Proposed memory: ${item.title}`}>
        <div className="memory-head">
          <span className="memory-verb">{decided === 'accepted' ? 'Accepted' : decided === 'rejected' ? 'Rejected' : 'Proposed'}</span>
          <button type="button" className="link" onClick={() => setOpen(!open)} aria-expanded={open}>
            {item.title}
          </button>
          {item.type && <span className={`badge type-${item.type}`}>{item.type}</span>}
          <span className="muted small">{decided ? '' : gone ? 'already decided elsewhere' : 'waiting for your review'}</span>
          <span className="spacer" />
          {!decided && !gone && (
            <>
              <button type="button" className="button ghost" onClick={() => void decide('reject')}>
                Reject
              </button>
              <button
                type="button"
                className="button ghost"
                onClick={() => {
                  s.setScreen('vault');
                  s.setPanel('review');
                }}
              >
                Edit…
              </button>
              <button type="button" className="button ghost" onClick={() => void decide('accept')}>
                Accept
              </button>
            </>
          )}
        </div>
        {open && <DiffView diff={item.diff} label={`Changes to ${item.title}`} />}
      </div>
    );
  }
  const verb = item.action === 'deleted' ? 'Forgot' : item.action === 'updated' ? 'Updated memory' : 'Remembered';
  const undo = async () => {
    if (!item.undoToken) return;
    const result = await api.invoke['chat:undo-memory']({ undoToken: item.undoToken });
    // The file changed since (or this session no longer holds the change): say so on the card and
    // offer the file's history, where the versions can be compared, instead of an error banner.
    if (!result.ok) setUndoProblem(result.error.message);
  };
  const dontRemember = async () => {
    const result = await api.invoke['chat:dont-remember']({ project, sessionId, itemId: item.id });
    if (result.ok) s.showToast({ text: 'Noted: Strata will not save things like this.' });
    else s.showError(result.error);
  };
  return (
    <div className={`memory-card${undone ? ' undone' : ''}`} role="group" aria-label={`${verb}: ${item.title}`}>
      <div className="memory-head">
        <span className="memory-verb">{undone ? 'Undone' : verb}</span>
        <button type="button" className="link" onClick={() => setOpen(!open)} aria-expanded={open}>
          {item.title}
        </button>
        {item.type && <span className={`badge type-${item.type}`}>{item.type}</span>}
        <span className="muted small">{item.by === 'extractor' ? 'noticed in the background' : ''}</span>
        <span className="spacer" />
        {!undone && item.undoToken && (
          <button type="button" className="button ghost" onClick={() => void undo()}>
            Undo
          </button>
        )}
        {item.action !== 'deleted' && !undone && (
          <button
            type="button"
            className="button ghost"
            onClick={() => {
              s.setScreen('vault');
              void openFile(item.path);
            }}
          >
            Edit
          </button>
        )}
        {item.by === 'extractor' && !undone && (
          <button type="button" className="button ghost" onClick={() => void dontRemember()}>
            Don’t remember things like this
          </button>
        )}
      </div>
      {undoProblem && (
        <p className="memory-undo-problem small" role="status">
          {undoProblem}{' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              s.setScreen('vault');
              void openFile(item.path).then(() => useStore.getState().setPanel('history'));
            }}
          >
            Compare versions in History
          </button>
        </p>
      )}
      {open && (
        // Focusable, so a diff wider or taller than the card scrolls from the keyboard too.
        <DiffView diff={item.diff} label={`Changes to ${item.title}`} />
      )}
    </div>
  );
}

/**
 * Chips naming the memories attached to a question. A chip shows why recall chose that memory
 * (docs/memory.md#recall "Why this memory") and offers to open it; a second click or Escape closes it.
 */
export function RecallChips({ item }: { item: Extract<ChatItem, { kind: 'recall' }> }) {
  const [shown, setShown] = useState<string | null>(null);
  const regionId = useId();
  if (item.memories.length === 0) return null;
  const open = item.memories.find((m) => m.path === shown) ?? null;
  return (
    <div className="recall-chips-block" onKeyDown={(e) => e.key === 'Escape' && open && setShown(null)}>
      <div className="recall-chips" aria-label="Memories used">
        <span className="muted small">Used memories:</span>
        {item.memories.map((m) => (
          <button
            key={m.path}
            type="button"
            className="chip"
            aria-expanded={shown === m.path}
            aria-controls={regionId}
            title={`${m.title} — saved ${ageText(m.ageDays)}`}
            onClick={() => setShown(shown === m.path ? null : m.path)}
          >
            {m.title}
          </button>
        ))}
      </div>
      {open && (
        <div id={regionId} role="region" aria-label={`Why “${open.title}”`} className="recall-why">
          <p className="small">
            <strong>{open.title}</strong> <span className="muted">saved {ageText(open.ageDays)}</span>
          </p>
          <p className="small">{open.why ?? 'Recalled for this question (no reasons were kept for it).'}</p>
          <button
            type="button"
            className="button ghost small"
            onClick={() => {
              useStore.getState().setScreen('vault');
              void openFile(open.path);
            }}
          >
            Open memory
          </button>
        </div>
      )}
    </div>
  );
}
