import { randomUUID } from 'node:crypto';
import type { ChatItem } from '../../../common/domain/chat.js';
import { liveContextTokens } from '../session-memory/index.js';
import type { ConversationAgent } from './agent-setup.js';
import { compactionNotice, compactionRecords } from './compaction-records.js';
import { recordsToItems } from './records-to-items.js';
import type { SessionCatalog } from './session-catalog.js';
import type { ConversationHost } from './conversation-host.js';

/** What a compaction run needs of its conversation. */
export interface CompactionHost extends ConversationHost {
  catalog: SessionCatalog;
  /** The compaction's records are in: the model's history starts again at its boundary. */
  restartAtBoundary(): void;
  /** The reminder block the model lost with what the compaction replaced (docs/memory.md#instructions). */
  injectContext(agent: ConversationAgent): Promise<void>;
  show(items: ChatItem[]): void;
  notice(text: string, id: string): void;
}

/**
 * docs/memory.md#compaction on a running conversation: before a turn and before each request after tool
 * results, compact when the context passed the threshold; "Compact now"; Retry after "too long"; the
 * API's own compaction. A failure never blocks the turn: nothing is appended and the conversation goes on.
 */
export class ConversationCompaction {
  constructor(private readonly host: CompactionHost) {}

  /** Compacts when the context passed the threshold. True when it compacted. */
  async ifDue(agent: ConversationAgent, signal: AbortSignal): Promise<boolean> {
    const used = liveContextTokens(await this.host.history());
    if (!this.host.engines.compactor.guard.status(this.host.sessionId, used).shouldAutoCompact) return false;
    return this.run(agent, 'auto', undefined, signal);
  }

  async run(agent: ConversationAgent, trigger: 'auto' | 'manual', instructions: string | undefined, signal: AbortSignal, serverSummary?: string): Promise<boolean> {
    const { host } = this;
    const history = await host.history();
    // One line that says what is happening, then what happened: never a stale "Compacting…".
    const noticeId = `notice-${randomUUID()}`;
    host.notice(compactionNotice(trigger, 'running'), noticeId);
    try {
      const transcriptPath = (await host.catalog.paths(host.project)).transcriptFile(host.sessionId);
      const outcome = await host.engines.compactor.compact({
        sessionId: host.sessionId,
        projectDir: host.project,
        records: history,
        transcriptPath,
        trigger,
        ...(instructions ? { instructions } : {}),
        ...(serverSummary !== undefined ? { serverSummary } : {}),
        summarize: agent.summarizer(() => history),
        signal,
      });
      const { divider, records } = compactionRecords(outcome, transcriptPath);
      await host.append(records);
      host.restartAtBoundary();
      await host.injectContext(agent);
      host.show(recordsToItems([divider], host.project));
      host.notice(compactionNotice(trigger, 'done'), noticeId);
      return true;
    } catch (error) {
      // Nothing was appended: the conversation goes on uncompacted.
      host.notice(`Compaction failed (${(error as Error).message}); the conversation is unchanged.`, noticeId);
      return false;
    }
  }
}
