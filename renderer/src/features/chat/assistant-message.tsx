import type { ChatItem } from '../../../../common/domain/chat';
import { regenerateAnswer } from '../../bridge/chat-actions';
import { Markdown } from './markdown';
import { CopyButton, MessageActions } from './message-actions';

type AssistantItem = Extract<ChatItem, { kind: 'assistant' }>;

/** An answer: copy it as markdown; the newest one can be answered again (the old answer stays reachable). */
export function AssistantMessage({ item, project, sessionId, last, busy }: { item: AssistantItem; project: string; sessionId: string; last: boolean; busy: boolean }) {
  // The actions sit beside the answer, not in it: the answer's text is the answer alone.
  return (
    <div className="message-block assistant">
      <article className="message assistant" aria-label="Strata" aria-busy={item.streaming || undefined}>
        {item.thinking && (
          <details className="thinking">
            <summary>Thinking</summary>
            <p>{item.thinking}</p>
          </details>
        )}
        <Markdown text={item.text} />
      </article>
      {!item.streaming && (
        <MessageActions>
          <CopyButton text={item.text} label="Copy answer" />
          {last && (
            <button type="button" className="button ghost small" disabled={busy} onClick={() => void regenerateAnswer(project, sessionId)}>
              Regenerate
            </button>
          )}
        </MessageActions>
      )}
    </div>
  );
}
