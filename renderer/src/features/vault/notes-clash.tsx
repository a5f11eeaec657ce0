import { useEffect, useRef, useState } from 'react';
import { merge3 } from '../../../../common/text/merge3';
import { MergeEditor } from '../conflicts/merge-editor';
import { ModalDialog } from '../../ui/modal-dialog';

export type ClashChoice = 'mine' | 'theirs' | 'both';

/**
 * The session notes' clash with the updater, readable in the 335-px notes panel: each place both
 * changed as two texts one above the other (what you wrote, what the update wrote), the three choices
 * one under another, and "Open wide" for combining the two line by line in a dialog as wide as the window.
 */
export function NotesClash({ base, mine, theirs, theirsKey, onEdit, onResolve }: {
  base: string;
  mine: string;
  theirs: string;
  /** Another version of the update starts the side-by-side view over. */
  theirsKey: string;
  onEdit: (text: string) => void;
  onResolve: (choice: ClashChoice) => void;
}) {
  const [wide, setWide] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const close = () => {
    setWide(false);
    opener.current?.focus();
  };
  return (
    <div className="banner warning external-change notes-clash" role="alert">
      <p>
        <strong>The notes were updated on the same lines you were editing.</strong> Nothing is lost: choose what to keep, or open
        both side by side to combine them.
      </p>
      <ClashLines base={base} mine={mine} theirs={theirs} />
      <button type="button" className="button secondary" ref={opener} onClick={() => setWide(true)}>
        Open wide to combine…
      </button>
      <Choices onResolve={onResolve} />
      {wide && (
        <WideClash mine={mine} theirs={theirs} theirsKey={theirsKey} onEdit={onEdit} onClose={close} onResolve={onResolve} />
      )}
    </div>
  );
}

function Choices({ onResolve }: { onResolve: (choice: ClashChoice) => void }) {
  return (
    <div className="clash-choices">
      <button type="button" className="button secondary" onClick={() => onResolve('theirs')}>
        Use the update
      </button>
      <button type="button" className="button secondary" onClick={() => onResolve('both')}>
        Keep both
      </button>
      <button type="button" className="button primary" onClick={() => onResolve('mine')}>
        Keep my version
      </button>
    </div>
  );
}

/** Yours (editable: what "Keep my version" saves) beside the update, taken line by line with ←. */
function WideClash({ mine, theirs, theirsKey, onEdit, onClose, onResolve }: {
  mine: string;
  theirs: string;
  theirsKey: string;
  onEdit: (text: string) => void;
  onClose: () => void;
  onResolve: (choice: ClashChoice) => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The text when the dialog opened starts the view; every edit in it goes to the notes' draft.
  const [start] = useState(mine);
  useEffect(() => heading.current?.focus(), []);
  // Escape closes this dialog only: the notes panel behind it (whose drawer hides on Escape) never hears it.
  return (
    <ModalDialog className="notes-clash-wide" labelledBy="notes-clash-heading" onEscape={onClose} stopEscape>
      <h2 id="notes-clash-heading" tabIndex={-1} ref={heading}>
        Your notes and the update
      </h2>
      <p className="muted small">Edit yours, or take the update&apos;s lines with ←: Keep my version saves yours as it is here.</p>
      <div className="resolver-labels">
        <p className="pane-label">
          <strong>Yours</strong> — your edit of the notes
        </p>
        <p className="pane-label">
          <strong>The update</strong> — what Strata wrote into the notes meanwhile
        </p>
      </div>
      <MergeEditor
        docKey={theirsKey}
        mine={start}
        theirs={theirs}
        onResult={onEdit}
        labels={{ mine: 'Your notes (editable)', theirs: 'The update' }}
        className="resolver-merge"
        foldUnchanged
      />
      <div className="row end">
        <button type="button" className="button ghost" onClick={onClose}>
          Back to the panel
        </button>
        <Choices onResolve={onResolve} />
      </div>
    </ModalDialog>
  );
}

/** The lines both sides changed, each side in full: what the user wrote and what the update wrote. */
function ClashLines({ base, mine, theirs }: { base: string; mine: string; theirs: string }) {
  const merged = merge3(base, mine, theirs);
  if (merged.clean) return null;
  const clashes = merged.chunks.filter((c) => c.kind === 'conflict');
  return (
    <dl className="clash-lines small">
      {clashes.slice(0, 3).map((c, i) => (
        <div key={i}>
          <dt>You wrote</dt>
          <dd className="mine">{c.mine.trim() || '(removed the lines)'}</dd>
          <dt>The update wrote</dt>
          <dd className="theirs">{c.theirs.trim() || '(removed the lines)'}</dd>
        </div>
      ))}
      {clashes.length > 3 && <p className="muted">…and {clashes.length - 3} more places: open wide to see them all.</p>}
    </dl>
  );
}
