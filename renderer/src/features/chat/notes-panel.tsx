import { useEffect, useRef, useState } from 'react';
import { useStoreShallow, useStore } from '../../store';
import { loadNotes, saveNotes } from '../../bridge/chat-actions';
import { Markdown } from './markdown';

/**
 * The session's notes, live: they update as the background updater edits them, and the user may edit
 * them too. A save carries the hash it started from, so an update made meanwhile is never overwritten.
 */
export function NotesPanel({
  project,
  sessionId,
  drawer = false,
  onHide = () => useStore.getState().setNotesOpen(false),
}: {
  project: string;
  sessionId: string;
  /** Shown over the conversation (a narrow window): it takes the focus, and Escape hides it. */
  drawer?: boolean;
  onHide?: () => void;
}) {
  const { notes } = useStoreShallow((s) => ({ notes: s.notes[sessionId] ?? null }));
  const [editing, setEditing] = useState<{ text: string; base: string | null } | null>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (drawer) panel.current?.focus();
  }, [drawer]);

  useEffect(() => {
    setEditing(null);
    void loadNotes(project, sessionId);
  }, [project, sessionId]);

  const changedUnderneath = editing !== null && notes !== null && notes.hash !== editing.base;

  return (
    <aside
      className={drawer ? 'notes-panel drawer' : 'notes-panel'}
      aria-labelledby="notes-heading"
      ref={panel}
      tabIndex={drawer ? -1 : undefined}
      onKeyDown={(e) => {
        if (drawer && e.key === 'Escape' && !editing) {
          e.stopPropagation();
          onHide();
        }
      }}
    >
      <header className="row">
        <h2 id="notes-heading">Session notes</h2>
        {notes?.updating && (
          <span className="muted small" role="status">
            updating…
          </span>
        )}
        <span className="spacer" />
        {editing ? (
          <>
            <button type="button" className="button ghost" onClick={() => setEditing(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button primary"
              disabled={changedUnderneath}
              onClick={() => void saveNotes(project, sessionId, editing.text, editing.base).then((ok) => ok && setEditing(null))}
            >
              Save
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button ghost"
            disabled={!notes?.exists}
            onClick={() => notes && setEditing({ text: notes.text, base: notes.hash })}
          >
            Edit
          </button>
        )}
        <button type="button" className="icon-button" aria-label="Hide session notes" onClick={onHide}>
          ×
        </button>
      </header>
      {changedUnderneath && (
        <p className="banner warning small" role="alert">
          The notes were updated while you were editing. Copy your text, cancel, and edit again — nothing was overwritten.
        </p>
      )}
      {!notes || !notes.exists ? (
        <p className="muted small">
          Notes start once the conversation has some substance (about 10,000 tokens). They keep track of the task, files, errors
          and results, and let long conversations continue without losing the thread.
        </p>
      ) : editing ? (
        <>
          <label className="sr-only" htmlFor="notes-editor">
            Session notes text
          </label>
          <textarea
            id="notes-editor"
            className="input notes-editor"
            value={editing.text}
            onChange={(e) => setEditing({ ...editing, text: e.target.value })}
          />
        </>
      ) : (
        <Markdown text={notes.text} />
      )}
    </aside>
  );
}
