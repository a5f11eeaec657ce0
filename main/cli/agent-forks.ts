import { resolveMemoryConfig } from '../../common/config.js';
import { ConversationAgent, type AgentEnvironment } from '../core/chat/agent-setup.js';
import { MemoryChanges } from '../core/chat/memory-changes.js';
import { loadKeytarStore, MemoryCredentialStore } from '../core/auth/credential-store.js';
import { stderrLogger } from '../core/ports.js';
import { notesPathFor, realProjectPath } from '../core/session-memory/index.js';
import { SettingsStore } from '../core/settings/settings-store.js';
import { ReadState } from '../core/tools/index.js';
import { conversationChain } from '../core/transcripts/conversation-chain.js';
import type { ExtractForkFactory } from './commands/extract.js';
import type { MakeForkRunner } from './commands/session-memory.js';
import type { CliIo } from './cli-io.js';

/** The model side of one-shot CLI commands: the vault's settings, the key from the environment or keychain. */
async function cliAgent(vaultRoot: string, projectDir: string, sessionId: string, io: CliIo): Promise<{ agent: ConversationAgent; changes: MemoryChanges }> {
  const settings = SettingsStore.forVault(vaultRoot, stderrLogger());
  await settings.load();
  const credentials = (await loadKeytarStore()) ?? new MemoryCredentialStore();
  const env: AgentEnvironment = {
    vaultRoot,
    settings: () => settings.get(),
    config: () => resolveMemoryConfig(settings.get().memory),
    credentials,
    env: io.env,
    environmentFirst: true,
  };
  const changes = new MemoryChanges(vaultRoot);
  const agent = await ConversationAgent.create({ env, project: projectDir, sessionId, readState: new ReadState(), changes });
  return { agent, changes };
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
