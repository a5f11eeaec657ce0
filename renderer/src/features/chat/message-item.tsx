import { memo } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { Markdown } from './markdown';
import { ToolCard } from './tool-card';
import { MemoryCard, RecallChips } from './memory-card';
import { IncludeApproval } from './include-approval';
import { CompactionDivider } from './compaction-divider';
import { TurnEnd } from './turn-end';

/** One entry of the conversation. */
export const MessageItem = memo(function MessageItem({ item, project, sessionId }: { item: ChatItem; project: string; sessionId: string }) {
  switch (item.kind) {
    case 'user':
      return (
        <article className="message user" aria-label="You">
          <div className="bubble">{item.text}</div>
        </article>
      );
    case 'assistant':
      return (
        <article className="message assistant" aria-label="Strata" aria-busy={item.streaming || undefined}>
          {item.thinking && (
            <details className="thinking">
              <summary>Thinking</summary>
              <p>{item.thinking}</p>
            </details>
          )}
          <Markdown text={item.text} />
        </article>
      );
    case 'tool':
      return <ToolCard item={item} />;
    case 'compaction':
      return <CompactionDivider item={item} />;
    case 'memory':
      return <MemoryCard item={item} project={project} sessionId={sessionId} />;
    case 'recall':
      return <RecallChips item={item} />;
    case 'notice':
      return <p className="notice-line muted small">{item.text}</p>;
    case 'turn-end':
      return <TurnEnd item={item} />;
    case 'include-approval':
      return <IncludeApproval item={item} project={project} />;
  }
});
