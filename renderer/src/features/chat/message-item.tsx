import { memo } from 'react';
import type { ChatItem } from '../../../../common/domain/chat';
import { UserMessage } from './user-message';
import { AssistantMessage } from './assistant-message';
import { ToolCard } from './tool-card';
import { MemoryCard, RecallChips } from './memory-card';
import { IncludeApproval } from './include-approval';
import { CompactionDivider } from './compaction-divider';
import { TurnEnd } from './turn-end';
import type { TurnAnswer } from './turn-answers';

/** One entry of the conversation. */
export const MessageItem = memo(function MessageItem({
  item,
  project,
  sessionId,
  lastAnswer = false,
  answer,
  busy = false,
}: {
  item: ChatItem;
  project: string;
  sessionId: string;
  /** The newest answer of the conversation: the one Regenerate replaces. */
  lastAnswer?: boolean;
  /** For a turn's final answer: the turn's answer as a whole (its text, its recall). */
  answer?: TurnAnswer;
  busy?: boolean;
}) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} project={project} sessionId={sessionId} busy={busy} />;
    case 'assistant':
      return <AssistantMessage item={item} project={project} sessionId={sessionId} last={lastAnswer} answer={answer} busy={busy} />;
    case 'tool':
      return <ToolCard item={item} project={project} sessionId={sessionId} />;
    case 'compaction':
      return <CompactionDivider item={item} project={project} sessionId={sessionId} />;
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
