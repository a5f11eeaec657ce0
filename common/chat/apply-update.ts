import type { ChatDelta, ChatItem, ChatSessionView, ChatUpdate } from '../domain/chat.js';

/**
 * How live events change an open conversation, shared by the renderer's store and the tests that
 * compare a live conversation with the same one reopened from its transcript. Events only add items
 * or replace one by id (in place); nothing depends on when they arrive.
 */
export function upsertItems(items: readonly ChatItem[], changes: readonly ChatItem[]): ChatItem[] {
  const next = [...items];
  const index = new Map(next.map((item, i) => [item.id, i]));
  for (const change of changes) {
    const at = index.get(change.id);
    if (at === undefined) {
      index.set(change.id, next.length);
      next.push(change);
    } else {
      next[at] = change;
    }
  }
  return next;
}

export function applyChatUpdate(view: ChatSessionView, update: ChatUpdate): ChatSessionView {
  const items = update.reset ? [...update.upserts] : upsertItems(view.items, update.upserts);
  // Each update says whether a progress line shows: one without it clears the last.
  const { progress: _shown, ...rest } = view;
  return { ...rest, items, phase: update.phase, error: update.error, context: update.context, ...(update.progress ? { progress: update.progress } : {}) };
}

/** A streamed piece of an answer: the answer's item grows (created on the first piece). */
export function applyChatDelta(view: ChatSessionView, delta: ChatDelta, now: string): ChatSessionView {
  const existing = view.items.find((i) => i.id === delta.itemId);
  const item: ChatItem =
    existing?.kind === 'assistant'
      ? { ...existing, text: existing.text + delta.text, streaming: true }
      : { kind: 'assistant', id: delta.itemId, text: delta.text, timestamp: now, streaming: true };
  return { ...view, items: upsertItems(view.items, [item]), phase: 'streaming' };
}
