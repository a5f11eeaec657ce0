import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from '../../store';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ChatItem } from '../../../../common/domain/chat';
import { MessageItem } from './message-item';
import { turnAnswers } from './turn-answers';

/** The words a row shows, for finding a search hit in it. */
function itemText(item: ChatItem): string {
  switch (item.kind) {
    case 'user':
    case 'assistant':
    case 'notice':
    case 'turn-end':
      return item.text;
    case 'tool':
      return `${item.summary}\n${item.result ?? ''}`;
    case 'memory':
      return `${item.title}\n${item.diff}`;
    default:
      return '';
  }
}

/**
 * The conversation, virtualised: only the rows near the viewport are in the DOM, so a session with
 * thousands of messages stays light. Follows the bottom while the user is at the bottom.
 */
export function MessageList({ items, project, sessionId, busy = false }: { items: ChatItem[]; project: string; sessionId: string; busy?: boolean }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 80,
    overscan: 8,
    getItemKey: (index) => items[index]!.id,
  });

  // A search hit opened this conversation: scroll to the first row holding the words, and mark it.
  const hit = useStore((s) => (s.chatHit?.sessionId === sessionId ? s.chatHit : null));
  const [marked, setMarked] = useState<string | null>(null);
  useEffect(() => {
    if (!hit || items.length === 0) return;
    const index = items.findIndex((i) => itemText(i).toLowerCase().includes(hit.term.toLowerCase()));
    useStore.getState().setChatHit(null);
    if (index === -1) return;
    atBottom.current = false;
    setMarked(items[index]!.id);
    virtualizer.scrollToIndex(index, { align: 'center' });
  }, [hit, items, virtualizer]);

  const lastAnswer = items.findLastIndex((i) => i.kind === 'assistant');
  const answers = useMemo(() => turnAnswers(items), [items]);
  const last = items[items.length - 1];
  const lastSize = last ? (last.kind === 'assistant' ? last.text.length : 0) : 0;
  useEffect(() => {
    if (atBottom.current && items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, lastSize, virtualizer]);

  // A turn starting (Send, Retry, an edited question, Regenerate) is the user asking for an answer: the
  // list goes back to the bottom, where it comes, even if they scrolled up to read while they waited.
  const wasBusy = useRef(busy);
  useEffect(() => {
    if (busy && !wasBusy.current && items.length > 0) {
      atBottom.current = true;
      virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
    }
    wasBusy.current = busy;
  }, [busy, items.length, virtualizer]);
  const lastTop = useRef(0);

  return (
    <div
      className="message-list"
      ref={scrollRef}
      role="log"
      aria-label="Conversation"
      aria-live="polite"
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        // Only the reader scrolling up stops the following: a follow that lands short of the bottom (a row
        // measured taller than estimated) must not, or every row after it would arrive out of sight.
        if (el.scrollHeight - el.scrollTop - el.clientHeight < 48) atBottom.current = true;
        else if (el.scrollTop < lastTop.current) atBottom.current = false;
        lastTop.current = el.scrollTop;
      }}
    >
      <div className="message-list-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className={`message-row${items[row.index]!.id === marked ? ' search-hit' : ''}`}
            aria-current={items[row.index]!.id === marked ? 'true' : undefined}
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <MessageItem item={items[row.index]!} project={project} sessionId={sessionId} lastAnswer={row.index === lastAnswer} answer={answers.get(row.index)} busy={busy} />
          </div>
        ))}
      </div>
    </div>
  );
}
