import type { ChatItem } from '../../../../common/domain/chat';

/** "Stopped" under an answer the user stopped, or the error that ended a turn, kept in the conversation. */
export function TurnEnd({ item }: { item: Extract<ChatItem, { kind: 'turn-end' }> }) {
  return (
    <p className={`turn-end ${item.reason}`} role="note" aria-label={item.reason === 'stopped' ? 'Stopped' : 'The answer did not complete'}>
      {item.text}
    </p>
  );
}
