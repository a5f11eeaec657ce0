// The shape of the engines bound to one vault, apart from services.ts that builds them: an engine that is handed
// the current vault (the team session) names this type without importing the composition root.
import type { MemoryConfig } from '../../common/config.js';
import type { RecallResult } from './auto-memory/index.js';
import type { SettingsStore } from './settings/index.js';
import type { ProjectRegistry } from './projects/index.js';
import type { Vault } from './vault/index.js';
import type { TranscriptStore } from './transcripts/index.js';
import type { SessionCatalog } from './chat/index.js';
import type { ChatRunner } from './chat/index.js';
import type { AgentEnvironment, ConversationAgent, MemoryChanges } from './chat/index.js';

/** The engines bound to one vault root; rebuilt when the user points the vault elsewhere. */
export interface VaultServices {
  root: string;
  isDefault: boolean;
  settings: SettingsStore;
  projects: ProjectRegistry;
  memoryConfig(): MemoryConfig;
  /** The vault's files, index, watcher and history. Await `ready` before reading its catalog. */
  files: Vault;
  ready: Promise<void>;
  transcripts: TranscriptStore;
  sessions: SessionCatalog;
  /** Running conversations and the memory engines on their loop. */
  chat: ChatRunner;
  /** What a conversation's agent is built from (settings, key, environment). */
  agentEnv: AgentEnvironment;
  /**
   * An agent outside the running conversations, for a command's one-shot fork (`strata session-memory`,
   * `extract`): the same system prompt and tools; `changes` records the memory files it writes.
   */
  /** What a chat turn in `project` would recall for `question`, with its reasons (`strata recall`); reads only. */
  recall(project: string, question: string, options?: { offline?: boolean; signal?: AbortSignal }): Promise<RecallResult>;
  oneShotAgent(project: string, sessionId: string): Promise<{ agent: ConversationAgent; changes: MemoryChanges }>;
  close(): Promise<void>;
}
