import { useState } from 'react';
import { useStoreShallow } from '../../store';
import { deleteSession, newSession, openSession, renameSession } from '../../bridge/chat-actions';
import { modLabel } from '../../ui/use-shortcuts';

const EMPTY: never[] = [];

/** The sidebar's conversations for the open project: search, open, rename (F2), delete with Undo. */
export function SessionList({ project }: { project: string }) {
  const { sessions, activeSessionId } = useStoreShallow((s) => ({
    sessions: s.sessions[project] ?? EMPTY,
    activeSessionId: s.activeSessionId,
  }));
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const shown = query.trim()
    ? sessions.filter((s) => s.title.toLowerCase().includes(query.trim().toLowerCase()))
    : sessions;

  return (
    <>
      <button type="button" className="button secondary full" onClick={() => void newSession(project)}>
        New conversation <kbd>{modLabel}N</kbd>
      </button>
      {sessions.length > 3 && (
        <>
          <label className="sr-only" htmlFor="session-search">
            Search conversations
          </label>
          <input
            id="session-search"
            className="input full-width"
            placeholder="Search conversations"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </>
      )}
      {sessions.length === 0 ? (
        <p className="muted small">No conversations in this project yet.</p>
      ) : (
        <ul className="session-list">
          {shown.map((s) =>
            renaming === s.sessionId ? (
              <li key={s.sessionId}>
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (draft.trim()) void renameSession(project, s.sessionId, draft.trim());
                    setRenaming(null);
                  }}
                >
                  <label className="sr-only" htmlFor={`rename-${s.sessionId}`}>
                    New title
                  </label>
                  <input
                    id={`rename-${s.sessionId}`}
                    className="input full-width"
                    autoFocus
                    value={draft}
                    onChange={(e) => setDraft(e.target.value)}
                    onBlur={() => setRenaming(null)}
                    onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
                  />
                </form>
              </li>
            ) : (
              <li key={s.sessionId} className="session-row">
                <button
                  type="button"
                  className="project-item"
                  aria-current={s.sessionId === activeSessionId ? 'true' : undefined}
                  title={`${s.title} — ${new Date(s.updatedAt).toLocaleString()} (F2 to rename)`}
                  onClick={() => void openSession(project, s.sessionId)}
                  onKeyDown={(e) => {
                    if (e.key === 'F2') {
                      setDraft(s.title);
                      setRenaming(s.sessionId);
                    } else if (e.key === 'Delete') void deleteSession(project, s.sessionId, s.title);
                  }}
                >
                  {s.title}
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Rename ${s.title}`}
                  onClick={() => {
                    setDraft(s.title);
                    setRenaming(s.sessionId);
                  }}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Delete ${s.title}`}
                  onClick={() => void deleteSession(project, s.sessionId, s.title)}
                >
                  ×
                </button>
              </li>
            ),
          )}
          {shown.length === 0 && <li className="muted small">No conversation matches.</li>}
        </ul>
      )}
    </>
  );
}
