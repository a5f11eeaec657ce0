import { useEffect, useRef, useState } from 'react';
import type { BeforeCompaction, ChatItem } from '../../../../common/domain/chat';
import { api } from '../../bridge';
import { ReadOnlyDialog } from '../../ui/read-only-dialog';
import { Markdown } from './markdown';

/** How a past tool call ended, when not plainly. */
const pastOutcome: Partial<Record<Extract<ChatItem, { kind: 'tool' }>['status'], string>> = { denied: ' — declined', paused: ' — not saved', error: ' — failed' };

/** One row of the conversation as it was, without the live chat's actions (nothing here can be changed). */
function PastItem({ item }: { item: ChatItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <article className="message user" aria-label="You">
          <div className="bubble">{item.text}</div>
        </article>
      );
    case 'assistant':
      return (
        <article className="message assistant" aria-label="Strata">
          <Markdown text={item.text} />
        </article>
      );
    case 'tool':
      return <p className="notice-line muted small">{`${item.name} ${item.summary}${pastOutcome[item.status] ?? ''}`}</p>;
    case 'memory':
      return <p className="notice-line muted small">{`Memory: ${item.title}`}</p>;
    case 'compaction':
      return <p className="notice-line muted small">An earlier compaction.</p>;
    case 'notice':
    case 'turn-end':
      return <p className="notice-line muted small">{item.text}</p>;
    default:
      return null;
  }
}

/**
 * What one compaction replaced, read-only: the conversation up to it (scrolled to its end, where the
 * divider is), the summary the model works from since, and the records themselves on demand.
 */
export function BeforeCompactionDialog({ project, sessionId, compactionId, onClose }: { project: string; sessionId: string; compactionId: string; onClose: () => void }) {
  const [past, setPast] = useState<BeforeCompaction | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [raw, setRaw] = useState(false);
  const list = useRef<HTMLElement | null>(null);
  const keep = (el: HTMLElement | null) => {
    list.current = el;
  };
  useEffect(() => {
    void api.invoke['chat:before-compaction']({ project, sessionId, compactionId }).then((r) => (r.ok ? setPast(r.value) : setProblem(r.error.message)));
  }, [project, sessionId, compactionId]);
  // Opened from the divider: the reader starts where the compaction happened, at the end of what it replaced.
  useEffect(() => {
    if (past && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [past, raw]);
  const toggle = past && (
    <button type="button" className="button ghost" aria-pressed={raw} onClick={() => setRaw(!raw)}>
      {raw ? 'Show as conversation' : 'Show raw'}
    </button>
  );
  return (
    <ReadOnlyDialog id="before-heading" title="Before this compaction (read-only)" onClose={onClose} actions={toggle}>
      <p className="muted small">
        The conversation as it was when it was compacted. Nothing was deleted: the model now works from the summary below and the messages kept
        after it.
      </p>
      {problem && <p className="error-text">{problem}</p>}
      {past && (
        <>
          <details className="compaction-summary">
            <summary>The summary the model kept</summary>
            <pre>{past.summary}</pre>
          </details>
          {raw ? (
            <pre className="raw-transcript" ref={keep} tabIndex={0} aria-label="Transcript records">
              {past.raw}
            </pre>
          ) : (
            <div className="past-conversation" ref={keep} role="log" aria-label="Conversation before the compaction" tabIndex={0}>
              {past.items.map((item) => (
                <PastItem key={item.id} item={item} />
              ))}
            </div>
          )}
        </>
      )}
      {!past && !problem && <p className="muted">Loading…</p>}
    </ReadOnlyDialog>
  );
}
