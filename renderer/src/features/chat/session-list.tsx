import { useEffect, useRef, useState } from 'react';
import { useStoreShallow } from '../../store';
import { deleteSession, newSession, openSession, renameSession } from '../../bridge/chat-actions';
import { IncognitoSessions } from '../memory-controls/incognito';
import { modLabel } from '../../ui/use-shortcuts';
import type { SessionSummary } from '../../../../common/domain/chat';
import { ConversationHits } from './conversation-hits';
import { formatDateTime } from '../../ui/dates';

const EMPTY: never[] = [];
const NEW = 'new-conversation';

/**
 * The sidebar's conversations for the open project: search (titles, and what the conversations said),
 * open, rename (F2), delete with Undo.
 */
export function SessionList({ project }: { project: string }) {
  const { sessions, activeSessionId } = useStoreShallow((s) => ({
    sessions: s.sessions[project] ?? EMPTY,
    activeSessionId: s.activeSessionId,
  }));
  const [query, setQuery] = useState('');
  // What the conversations said that matches, found by ConversationHits: a title that does not match is no miss then.
  const [found, setFound] = useState(0);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  // Where the keyboard goes once a rename or a delete is done: a conversation's row, or New conversation.
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusTarget === null) return;
    const rows = Array.from(listRef.current?.querySelectorAll<HTMLElement>('[data-session-id]') ?? []);
    const target = focusTarget === NEW ? newButton.current : rows.find((el) => el.dataset.sessionId === focusTarget);
    if (!target) return;
    target.focus();
    setFocusTarget(null);
  }, [focusTarget, sessions, renaming]);
  const shown = query.trim()
    ? sessions.filter((s) => s.title.toLowerCase().includes(query.trim().toLowerCase()))
    : sessions;

  /** Deletes a conversation (Undo is in the toast) and moves the keyboard to its neighbour in the list. */
  const remove = (session: SessionSummary, index: number) => {
    const next = shown[index + 1] ?? shown[index - 1];
    void deleteSession(project, session.sessionId, session.title).then(() => setFocusTarget(next?.sessionId ?? NEW));
  };

  return (
    <>
      <button type="button" className="button secondary full" ref={newButton} onClick={() => void newSession(project)}>
        New conversation <kbd>{modLabel}N</kbd>
      </button>
      <IncognitoSessions project={project} />
      {sessions.length > 0 && (
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
        <ul className="session-list" ref={listRef}>
          {shown.map((s, index) =>
            renaming === s.sessionId ? (
              <li key={s.sessionId}>
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (draft.trim()) void renameSession(project, s.sessionId, draft.trim());
                    setRenaming(null);
                    setFocusTarget(s.sessionId);
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
                    onKeyDown={(e) => {
                      if (e.key !== 'Escape') return;
                      setRenaming(null);
                      setFocusTarget(s.sessionId);
                    }}
                  />
                </form>
              </li>
            ) : (
              <li key={s.sessionId} className="session-row">
                <button
                  type="button"
                  className="project-item"
                  data-session-id={s.sessionId}
                  aria-current={s.sessionId === activeSessionId ? 'true' : undefined}
                  title={`${s.title} — ${formatDateTime(s.updatedAt)} (F2 to rename)`}
                  onClick={() => void openSession(project, s.sessionId)}
                  onKeyDown={(e) => {
                    if (e.key === 'F2') {
                      setDraft(s.title);
                      setRenaming(s.sessionId);
                    } else if (e.key === 'Delete') remove(s, index);
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
                  onClick={() => remove(s, index)}
                >
                  ×
                </button>
              </li>
            ),
          )}
          {shown.length === 0 && found === 0 && <li className="muted small">No conversation matches “{query.trim()}”.</li>}
        </ul>
      )}
      <ConversationHits project={project} query={query} onFound={setFound} />
    </>
  );
}
