import { useId, useState } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { regenerateAnswer } from '../../bridge/chat-actions';
import { openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { ageText } from './age-text';
import { Markdown } from './markdown';
import { CopyButton, MessageActions } from './message-actions';
import type { TurnAnswer } from './turn-answers';

type AssistantItem = Extract<ChatItem, { kind: 'assistant' }>;
type RecallItem = Extract<ChatItem, { kind: 'recall' }>;

/**
 * An answer block. A turn's last block carries the answer's actions: copy the whole answer as markdown;
 * on the newest, once the turn is over, answer it again (the old answer stays reachable).
 */
export function AssistantMessage({
  item,
  project,
  sessionId,
  last,
  answer,
  busy,
}: {
  item: AssistantItem;
  project: string;
  sessionId: string;
  last: boolean;
  answer?: TurnAnswer;
  busy: boolean;
}) {
  const recall = answer?.recall;
  // A block before a tool call, or the answer of a turn still running, has no actions yet.
  const actions = answer !== undefined && !item.streaming && !(answer.open && busy);
  const [why, setWhy] = useState(false);
  const whyId = useId();
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
      {actions && (
        <MessageActions>
          <CopyButton text={answer.text} label="Copy answer" />
          {last && !busy && (
            <button type="button" className="button ghost small" onClick={() => void regenerateAnswer(project, sessionId)}>
              Regenerate
            </button>
          )}
          {recall && (
            <button type="button" className="button ghost small" aria-expanded={why} aria-controls={whyId} onClick={() => setWhy(!why)}>
              Why do you know this?
            </button>
          )}
        </MessageActions>
      )}
      {recall && why && <RecalledFor id={whyId} recall={recall} />}
    </div>
  );
}

/** The memories recall attached for this answer (docs/memory.md#provenance-and-use), each opening its file. */
function RecalledFor({ id, recall }: { id: string; recall: RecallItem }) {
  return (
    <section id={id} className="answer-recall" aria-label="Memories behind this answer">
      <p className="muted small">This answer had these saved memories to go on:</p>
      <ul>
        {recall.memories.map((m) => (
          <li key={m.path}>
            <button
              type="button"
              className="link"
              onClick={() => {
                useStore.getState().setScreen('vault');
                void openFile(m.path);
              }}
            >
              {m.title}
            </button>{' '}
            <span className="muted small">saved {ageText(m.ageDays)}</span>
            {m.why && <span className="recall-reason muted small">{m.why}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
