import type { ChatItem } from '../../../../common/domain/chat';

type RecallItem = Extract<ChatItem, { kind: 'recall' }>;

/** A turn's answer as its actions see it: one answer, however many text blocks its tool calls split it into. */
export interface TurnAnswer {
  /** Every text block of the turn's answers, in order: what Copy copies. */
  text: string;
  /** The memories recall attached to the question (docs/memory.md#provenance-and-use): what "Why do you know this?" shows. */
  recall?: RecallItem;
  /** No question follows yet: while a turn runs, this answer may still grow. */
  open: boolean;
}

/**
 * For each turn's final answer (by index), the turn's answer as a whole. A turn is what follows a user
 * message; its recall comes before its answers, and the last answer block of the turn carries the
 * actions, so an answer split by a tool call has one Copy, not one per block.
 */
export function turnAnswers(items: readonly ChatItem[]): Map<number, TurnAnswer> {
  const out = new Map<number, TurnAnswer>();
  let recall: RecallItem | null = null;
  let texts: string[] = [];
  let lastAnswer = -1;
  const close = (open: boolean) => {
    if (lastAnswer >= 0) out.set(lastAnswer, { text: texts.join('\n\n'), open, ...(recall && recall.memories.length > 0 ? { recall } : {}) });
    recall = null;
    texts = [];
    lastAnswer = -1;
  };
  items.forEach((item, index) => {
    if (item.kind === 'user') close(false);
    else if (item.kind === 'recall') recall = item;
    else if (item.kind === 'assistant') {
      lastAnswer = index;
      if (item.text.trim() !== '') texts.push(item.text);
    }
  });
  close(true);
  return out;
}
