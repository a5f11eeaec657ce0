// The engines of a vault for a command that runs once and exits (`strata search`, `memory`, `sync`,
// `session-memory`, `scan-secrets`): the CLI builds them only here (a lint fence, docs/architecture.md#what-may-import-what),
// so a one-shot command reads the same settings, with the same defaults, as the app.
import { resolveMemoryConfig, type MemoryConfig } from '../../common/config.js';
import { systemClock, type Clock, type CredentialStore, type Logger } from './ports.js';
import { SettingsStore } from './settings/index.js';
import { Vault } from './vault/index.js';
import { loadKeytarStore, MemoryCredentialStore } from './auth/index.js';
import { SessionNotesUpdater } from './session-memory/index.js';
import { openTeamSync, TeamAuth, type OpenedTeamSync, type OpenTeamSyncInput } from './team-sync/index.js';

/** What one-shot commands use of a vault: nothing watches, nothing starts. */
export interface VaultEngines {
  readonly root: string;
  readonly settings: SettingsStore;
  readonly memoryConfig: () => MemoryConfig;
  /** The vault's files and search index, not opened yet (the caller opens it when it needs the catalog). */
  readonly files: Vault;
  /** The team sign-in stored for `serverUrl` in `credentials`; it never opens a browser. */
  teamAuth(serverUrl: string, credentials: CredentialStore): TeamAuth;
  /** The team sync engine of one project of this vault, with the vault's sync settings (`openTeamSync`). */
  teamSync(input: Omit<OpenTeamSyncInput, 'vaultRoot' | 'config' | 'indexCaps' | 'clock' | 'logger'>): Promise<OpenedTeamSync>;
}

/** The settings and the file engine of a vault, built alike for the app and for one-shot commands. */
export async function vaultCore(root: string, options: { clock: Clock; logger: Logger; watch: boolean }) {
  const { clock, logger } = options;
  const settings = SettingsStore.forVault(root, logger);
  await settings.load();
  const memoryConfig = () => resolveMemoryConfig(settings.get().memory);
  const files = new Vault({ root, clock, logger, config: memoryConfig, watch: options.watch, memoryShape: () => settings.get().memoryShape });
  return { settings, memoryConfig, files };
}

/**
 * The lightweight half of the composition root, for a command that runs once and exits: the vault's
 * settings, files and team sign-in, without the conversation engines, the trash purge at start, the
 * watcher or the team service's pulls. The vault folder is used as it is (never created).
 */
export async function createVaultEngines(input: { root: string; logger: Logger; clock?: Clock }): Promise<VaultEngines> {
  const clock = input.clock ?? systemClock;
  const core = await vaultCore(input.root, { clock, logger: input.logger, watch: false });
  return {
    root: input.root,
    ...core,
    teamAuth: (serverUrl, credentials) =>
      new TeamAuth({
        serverUrl,
        credentials,
        clock,
        logger: input.logger,
        openBrowser: () => undefined,
        refreshLeadMs: core.memoryConfig().teamSync.tokenRefreshLeadMs,
      }),
    teamSync: (project) =>
      openTeamSync({ ...project, vaultRoot: input.root, config: core.memoryConfig().teamSync, indexCaps: core.memoryConfig().autoMemory, clock, logger: input.logger }),
  };
}

/**
 * The vault's memory numbers (settings `memory` overrides over the defaults), read without the
 * settings store, which may move a bad file aside: a command that only reads must leave it be.
 */
export async function readVaultMemoryConfig(vaultRoot: string): Promise<MemoryConfig> {
  return resolveMemoryConfig((await SettingsStore.peek(vaultRoot)).memory);
}

/** One session's notes updates through the model (`strata session-memory`), with the vault's session-memory numbers. */
export async function sessionNotesUpdater(input: { vaultRoot: string; logger: Logger; clock?: Clock }): Promise<SessionNotesUpdater> {
  const config = (await readVaultMemoryConfig(input.vaultRoot)).sessionMemory;
  return new SessionNotesUpdater({ vaultRoot: input.vaultRoot, config, clock: input.clock ?? systemClock, logger: input.logger });
}

export { appVaultRoot, secretAllowances } from './light-engines.js';

/** The OS keychain, else a store that lasts as long as this process (`keychain` false: say so). */
export async function openCredentialStore(): Promise<{ store: CredentialStore; keychain: boolean }> {
  const keychain = await loadKeytarStore();
  return keychain ? { store: keychain, keychain: true } : { store: new MemoryCredentialStore(), keychain: false };
}
