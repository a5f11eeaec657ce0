import { useEffect, useRef, useState } from 'react';
import type { ConflictView } from '../../../../common/domain/team';
import { api } from '../../bridge';
import { resolveConflict } from '../../bridge/team-actions';
import { useStore } from '../../store';
import { ReadOnlyPane } from './read-only-pane';
import { MergeEditor } from './merge-editor';
import { formatDateTime } from '../../ui/dates';
import { composeResult, conflictTitle, memorySides, startingResult, type Head } from './memory-sides';
import { HeadFields } from './head-fields';
import { ModalDialog } from '../../ui/modal-dialog';

const FOCUSABLE = 'button:not([disabled]), [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/** Keeps Tab inside the dialog (it is modal: what is behind it cannot be used until it closes). */
function trapTab(e: React.KeyboardEvent<HTMLElement>): void {
  if (e.key !== 'Tab') return;
  const items = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const [first, last] = [items[0], items.at(-1)];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

const when = formatDateTime;

/**
 * One conflict, in a dialog as wide as the window (two readable panes at 1024 px): yours, which is the
 * result you edit, beside theirs; the base is one click away. Labels are from the viewer's side: this
 * dialog is never synced, so "yours" is always the text on this computer. A memory is titled by its
 * name and shown as one (memory-sides.ts): its fields above, its body in the panes.
 */
export function Resolver({ project, keyName }: { project: string; keyName: string }) {
  const [view, setView] = useState<ConflictView | null>(null);
  const [merged, setMerged] = useState<string | null>(null);
  const [head, setHead] = useState<Head | null>(null);
  const [showBase, setShowBase] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const close = () => useStore.getState().openConflict(null);

  useEffect(() => {
    setMerged(null);
    setHead(null);
    setView(null);
    setShowBase(false);
    void api.invoke['team:read-conflict']({ project, key: keyName }).then((r) => (r.ok ? setView(r.value) : useStore.getState().showError(r.error)));
  }, [project, keyName]);
  // Closing puts focus back where it was (the conflict's name in the list), not on the page body:
  // taken while rendering, before the heading below takes focus.
  const before = useRef(document.activeElement);
  useEffect(() => {
    const back = before.current;
    return () => {
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    };
  }, []);
  useEffect(() => heading.current?.focus(), [view]);

  const docKey = `${project}:${keyName}`;
  const start = view ? startingResult(view) : '';
  const sides = view ? memorySides(view) : null;
  const title = view ? conflictTitle(view) : keyName;
  const premerged = view !== null && start !== (view.mine ?? '');
  const result = sides ? composeResult(sides, head ?? sides.start.head, merged ?? sides.start.body) : (merged ?? start);
  const fieldsDiffer = sides !== null && JSON.stringify(sides.start.head) !== JSON.stringify(sides.theirs.head);
  const changed = view !== null && result !== (view.mine ?? '');
  return (
    <ModalDialog className="resolver" labelledBy="resolver-heading" onEscape={close} trapFocus={false} onKeyDown={trapTab}>
      <header className="resolver-head">
        <h2 id="resolver-heading" tabIndex={-1} ref={heading}>
          Resolve {title}
        </h2>
        {title !== keyName && <span className="muted small resolver-file">{keyName}</span>}
        <span className="spacer" />
        <button type="button" className="button ghost" onClick={close}>
          Close
        </button>
      </header>
      {!view ? (
        <p className="muted">Opening the conflict…</p>
      ) : (
        <>
          <p className="muted small">
            You and a teammate both changed this memory since the last sync. Nothing is lost: yours stays in place until you choose.
            {fieldsDiffer ? ' Choose the name, description or type to keep where they differ.' : ''} Edit yours to make the result, or take
            their lines change by change with ←.
            {view.mine === null ? ' You deleted it; they edited it.' : ''}
            {view.theirs === null ? ' They deleted it; you edited it.' : ''}
            {premerged ? ' Their changes that do not touch yours are already in the result; what is marked is where you both changed the same lines.' : ''}
          </p>
          <div className="resolver-toolbar">
            <button type="button" className="button secondary" aria-pressed={showBase} onClick={() => setShowBase(!showBase)}>
              {showBase ? 'Hide the base' : 'Show the base'}
            </button>
          </div>
          {showBase && (
            <div className="resolver-base">
              <p className="pane-label">Base — the last version you both had</p>
              <ReadOnlyPane
                className="base-pane"
                docKey={docKey}
                text={(sides?.base ? sides.base.body : view.base) ?? '(no shared version: the memory is new on both sides)'}
                label="Base version (last agreed)"
              />
            </div>
          )}
          <div className="resolver-labels">
            <p className="pane-label">
              <strong>Yours</strong>
              {view.you ? ` — ${view.you}, on this computer` : ' — on this computer'} · the result
            </p>
            <p className="pane-label">
              <strong>Theirs</strong>
              {view.theirsBy ? ` — changed by ${view.theirsBy}` : ' — a teammate, via the team server'}
              {view.theirsAt ? ` · ${when(view.theirsAt)}` : ` · received ${when(view.receivedAt)}`}
            </p>
          </div>
          {sides && (
            <HeadFields
              mine={sides.start.head}
              theirs={sides.theirs.head}
              base={showBase ? (sides.base?.head ?? null) : null}
              chosen={head ?? sides.start.head}
              onChange={setHead}
            />
          )}
          <MergeEditor
            docKey={docKey}
            mine={sides ? sides.start.body : start}
            theirs={sides ? sides.theirs.body : (view.theirs ?? '')}
            onResult={setMerged}
            labels={{ mine: 'Your version (the result, editable)', theirs: 'Their version' }}
            className="resolver-merge"
            foldUnchanged
          />
          <p className="muted small">
            Keep both: theirs stays under this name and yours becomes a separate memory named after you and today&apos;s date, listed in
            MEMORY.md.
          </p>
          <div className="row end resolver-actions">
            <button type="button" className="button ghost" onClick={() => void resolveConflict(project, keyName, 'theirs', undefined, title)}>
              Keep theirs
            </button>
            <button type="button" className="button ghost" onClick={() => void resolveConflict(project, keyName, 'both', undefined, title)}>
              Keep both
            </button>
            <button type="button" className="button secondary" onClick={() => void resolveConflict(project, keyName, 'mine', undefined, title)}>
              Keep yours
            </button>
            <button
              type="button"
              className="button primary"
              disabled={!changed}
              onClick={() => void resolveConflict(project, keyName, 'merged', result, title)}
            >
              Save the result
            </button>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
