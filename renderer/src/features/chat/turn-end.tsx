import type { ChatItem } from '../../../../common/domain/chat';

const labels = { stopped: 'Stopped', failed: 'The answer did not complete', retried: 'Answered on retry' } as const;

/** "Stopped" under an answer the user stopped, or the error that ended a turn (then answered by Retry), kept in the conversation. */
export function TurnEnd({ item }: { item: Extract<ChatItem, { kind: 'turn-end' }> }) {
  return (
    <p className={`turn-end ${item.reason}`} role="note" aria-label={labels[item.reason]}>
      {item.text}
    </p>
  );
}
