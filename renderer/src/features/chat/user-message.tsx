import { useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { continueBranch, editAndResend } from '../../bridge/chat-actions';
import { Markdown } from './markdown';
import { CopyButton, MessageActions } from './message-actions';

type UserItem = Extract<ChatItem, { kind: 'user' }>;

/** A question: copy it, or edit and resend it (a new branch; the earlier versions stay below it). */
export function UserMessage({ item, project, sessionId, busy }: { item: UserItem; project: string; sessionId: string; busy: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.text);
  const resend = async () => {
    if (!draft.trim() || draft.trim() === item.text) return setEditing(false);
    if (await editAndResend(project, sessionId, draft, item.id)) setEditing(false);
  };
  // The actions and earlier versions sit beside the question, not in it: its text is the question alone.
  return (
    <div className="message-block user">
      <article className="message user" aria-label="You">
        {editing ? (
          <form
            className="edit-question"
            onSubmit={(e) => {
              e.preventDefault();
              void resend();
            }}
          >
            <label className="sr-only" htmlFor={`edit-${item.id}`}>
              Edit your question
            </label>
            <textarea
              id={`edit-${item.id}`}
              className="input"
              value={draft}
              rows={Math.min(8, draft.split('\n').length + 1)}
              autoFocus
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setEditing(false);
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  void resend();
                }
              }}
            />
            <div className="row end">
              <button type="button" className="button ghost" onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className="button primary" disabled={busy || !draft.trim()}>
                Send edited question
              </button>
            </div>
          </form>
        ) : (
          <div className="bubble">{item.text}</div>
        )}
      </article>
      {!editing && (
        <MessageActions>
          <CopyButton text={item.text} label="Copy question" />
          <button
            type="button"
            className="button ghost small"
            disabled={busy}
            onClick={() => {
              setDraft(item.text);
              setEditing(true);
            }}
          >
            Edit
          </button>
        </MessageActions>
      )}
      {item.earlier && item.earlier.length > 0 && <EarlierVersions earlier={item.earlier} busy={busy} onContinue={(leaf) => void continueBranch(project, sessionId, leaf)} />}
    </div>
  );
}

/** What this turn said before an edit or a regenerate: kept in the transcript, shown on demand, and can be taken up again. */
function EarlierVersions({ earlier, busy, onContinue }: { earlier: NonNullable<UserItem['earlier']>; busy: boolean; onContinue: (leafUuid: string) => void }) {
  return (
    <details className="earlier-versions">
      <summary>
        {earlier.length === 1 ? '1 earlier version' : `${earlier.length} earlier versions`}
      </summary>
      <ol>
        {earlier.map((v) => (
          <li key={v.leafUuid}>
            <p className="earlier-question">{v.question}</p>
            {v.answer ? <Markdown text={v.answer} /> : <p className="muted small">No answer.</p>}
            <button type="button" className="button ghost small" disabled={busy} onClick={() => onContinue(v.leafUuid)}>
              Continue from this version
            </button>
          </li>
        ))}
      </ol>
    </details>
  );
}
