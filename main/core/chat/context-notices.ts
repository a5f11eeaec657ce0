import { randomUUID } from 'node:crypto';
import type { ChatItem } from '../../../common/domain/chat.js';
import type { SessionContext } from '../context/index.js';

/**
 * What the chat asks or tells when the instructions are (re)loaded (docs/memory.md#instructions): an approval for each
 * CLAUDE.md include outside the project, and a notice for instruction files large enough to weigh on
 * every request. A resumed conversation already showed its notices: only approvals still waiting.
 */
export function contextNotices(context: SessionContext, reason: 'start' | 'resume' | 'compaction', largeFileChars: number): ChatItem[] {
  const asks: ChatItem[] = context.instructions.pendingApprovals.map((a) => ({
    kind: 'include-approval',
    id: `include-${randomUUID()}`,
    path: a.path,
    includedFrom: a.includedFrom,
  }));
  if (reason === 'resume') return asks;
  const large = context.instructions.files.filter((f) => f.large);
  if (large.length > 0) {
    const one = large.length === 1;
    asks.push({
      kind: 'notice',
      id: `notice-${randomUUID()}`,
      text: `${large.map((f) => f.path).join(', ')} ${one ? 'is' : 'are'} over ${largeFileChars.toLocaleString('en-US')} characters and take${one ? 's' : ''} a large share of every request.`,
    });
  }
  return asks;
}
