import type { TranscriptRecord } from '../core/transcripts/index.js';
import type { ForkRunner as ExtractorFork } from '../core/auto-memory/index.js';
import type { ForkRunner as NotesFork } from '../core/session-memory/index.js';
import type { ConversationAgent, MemoryChanges } from '../core/chat/index.js';
import { notesPathFor, realProjectPath } from '../core/session-memory/index.js';
import { conversationChain } from '../core/transcripts/index.js';
import type { CliIo } from './cli-io.js';
import { cliServices } from './cli-services.js';

/** What `strata session-memory` needs to fork the agent over a transcript's conversation. */
export interface ForkRunnerRequest {
  vaultRoot: string;
  projectDir: string;
  sessionId: string;
  /** The transcript's records: the fork's prefix is their conversation after the last compact boundary. */
  records: readonly TranscriptRecord[];
  io: CliIo;
}
export type MakeForkRunner = (request: ForkRunnerRequest) => Promise<NotesFork>;

/** What `strata extract` needs to reach the model: a fork runner for this project, built from the agent engine. */
export type ExtractForkFactory = (args: { projectDir: string; vaultRoot: string; memoryDir: string; io: CliIo }) => Promise<ExtractorFork>;

/**
 * The model side of one-shot CLI commands, from the engines services.ts builds for the vault (its settings,
 * the key from the environment first, then the keychain). The agent keeps what it was built from, so the
 * vault's engines are closed once it exists: no watcher or scan outlives the command.
 */
async function cliAgent(vaultRoot: string, projectDir: string, sessionId: string, io: CliIo): Promise<{ agent: ConversationAgent; changes: MemoryChanges }> {
  const services = await cliServices(io, vaultRoot, 'cli', { warnWithoutKeychain: false });
  try {
    return await services.vault().oneShotAgent(projectDir, sessionId);
  } finally {
    await services.close();
  }
}

/** `strata session-memory`: the notes fork over the transcript's conversation (from its last compact boundary). */
export const cliNotesFork: MakeForkRunner = async ({ vaultRoot, projectDir, sessionId, records, io }) => {
  const { agent } = await cliAgent(vaultRoot, projectDir, sessionId, io);
  const chain = conversationChain(records).records;
  return agent.notesFork(
    () => chain,
    async () => notesPathFor(vaultRoot, await realProjectPath(projectDir), sessionId),
  );
};

/** `strata extract`: the extractor's fork with the agent's exact system prompt and tools. */
export const cliExtractFork: ExtractForkFactory = async ({ projectDir, vaultRoot, io }) => {
  const { agent, changes } = await cliAgent(vaultRoot, projectDir, 'strata-extract', io);
  return agent.extractorFork(changes, () => undefined);
};
