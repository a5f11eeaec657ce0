import type { ChatItem } from '../../../../common/domain/chat';

type RecallItem = Extract<ChatItem, { kind: 'recall' }>;

/**
 * For each turn's final answer (by index), the memories recall attached to the question behind it
 * (docs/memory.md#provenance-and-use): what "Why do you know this?" shows. A turn is what follows a
 * user message; its recall comes before its answers, and the last answer of the turn carries it.
 */
export function recallByAnswer(items: readonly ChatItem[]): Map<number, RecallItem> {
  const out = new Map<number, RecallItem>();
  let recall: RecallItem | null = null;
  let lastAnswer = -1;
  const close = () => {
    if (recall && recall.memories.length > 0 && lastAnswer >= 0) out.set(lastAnswer, recall);
    recall = null;
    lastAnswer = -1;
  };
  items.forEach((item, index) => {
    if (item.kind === 'user') close();
    else if (item.kind === 'recall') recall = item;
    else if (item.kind === 'assistant') lastAnswer = index;
  });
  close();
  return out;
}
