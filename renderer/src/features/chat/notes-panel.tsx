import { useEffect, useRef, useState } from 'react';
import { useStoreShallow, useStore } from '../../store';
import { loadNotes } from '../../bridge/chat-actions';
import { Markdown } from './markdown';
import { NotesEditor } from '../vault/notes-editor';
import { readableNotes } from '../vault/notes-sections';
import { readNotesDraft } from '../vault/notes-draft';

/**
 * The session's notes, live: they update as the background updater edits them, and read as notes (the
 * template's instructions only name the sections not written yet). The user edits them in the vault's
 * editor, saved by itself and merged with the updater's changes (NotesEditor).
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
  const { notes, incognito } = useStoreShallow((s) => ({
    notes: s.notes[sessionId] ?? null,
    incognito: s.views[sessionId]?.incognito === true,
  }));
  const [editing, setEditing] = useState(false);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    if (drawer) panel.current?.focus();
  }, [drawer]);

  useEffect(() => {
    // An edit not saved yet (the panel closed mid-edit, a reload, a clash with the updater) opens again where it was.
    setEditing(!incognito && readNotesDraft(sessionId) !== null);
    // An incognito conversation has no notes file to read (docs/memory.md#pause-and-incognito).
    if (!incognito) void loadNotes(project, sessionId);
  }, [project, sessionId, incognito]);

  const readable = notes?.exists ? readableNotes(notes.text) : null;

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
        {/* An incognito conversation has no notes to edit: no button that can never be used. */}
        {!incognito && (
          <button type="button" className="button ghost" aria-pressed={editing} disabled={!notes?.exists} onClick={() => setEditing(!editing)}>
            {editing ? 'Done' : 'Edit'}
          </button>
        )}
        <button type="button" className="icon-button" aria-label="Hide session notes" onClick={onHide}>
          ×
        </button>
      </header>
      {readable?.title && !editing && <p className="notes-title">{readable.title}</p>}
      {incognito ? (
        <p className="muted small">
          An incognito conversation keeps no session notes: nothing of it is written to your vault, and it is gone when Strata
          quits.
        </p>
      ) : !notes || !notes.exists ? (
        <p className="muted small">
          Notes start once the conversation has some substance (about 10,000 tokens). They keep track of the task, files, errors
          and results, and let long conversations continue without losing the thread.
        </p>
      ) : editing ? (
        <NotesEditor key={notes.sessionId} project={project} notes={notes} />
      ) : (
        <>
          {readNotesDraft(sessionId) && (
            <p className="banner warning small" role="status">
              Your edit of these notes is not saved yet.{' '}
              <button type="button" className="link" onClick={() => setEditing(true)}>
                Finish it
              </button>
            </p>
          )}
          {readable!.markdown ? <Markdown text={readable!.markdown} breaks /> : <p className="muted small">Nothing written yet.</p>}
          {readable!.empty.length > 0 && (
            <p className="muted small notes-empty">Not written yet: {readable!.empty.join(', ')}.</p>
          )}
        </>
      )}
    </aside>
  );
}
