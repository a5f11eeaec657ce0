import type { ChatItem } from '../../../common/domain/chat.js';
import type { Clock, Logger } from '../ports.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import type { AgentEnvironment } from './agent-setup.js';
import type { MemoryEngines } from './memory-engines.js';

/**
 * What every part of a conversation (the turn, recall, compaction, the reminder block, the memory
 * engines' hooks) needs of the session that owns it: who it is, and the records it extends.
 */
export interface ConversationHost {
  env: AgentEnvironment;
  engines: MemoryEngines;
  project: string;
  sessionId: string;
  clock: Clock;
  logger: Logger;
  /** The model-visible records, which an append extends. */
  history(): Promise<TranscriptRecord[]>;
  append(records: TranscriptRecord[]): Promise<void>;
  /** Items that are not messages (memory cards, notices) go into the transcript and to the UI. */
  addItems(items: ChatItem[]): Promise<void>;
}
