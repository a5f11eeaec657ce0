import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolveMemoryConfig } from '../../common/config.js';
import { EventHub } from './events.js';
import { systemClock, silentLogger, type Clock, type CredentialStore, type Logger } from './ports.js';
import { SettingsStore } from './settings/index.js';
import { ProjectRegistry } from './projects/index.js';
import { VaultRootPointer } from './vault/index.js';
import { MemoryCredentialStore } from './auth/index.js';
import { Vault } from './vault/index.js';
import { TranscriptStore } from './transcripts/index.js';
import { SessionCatalog } from './chat/index.js';
import { ChatRunner } from './chat/index.js';
import type { AgentEnvironment } from './chat/index.js';
import { TeamService } from './team/index.js';
import type { VaultServices } from './vault-services.js';

/** Everything the composition root needs from its caller (Electron entry, host, CLI, tests). */
export interface ServicesConfig {
  /** The app's own data folder: the default vault root and where the vault choice is kept. */
  appDataDir: string;
  /** A vault root forced for this process (`--vault DIR`); not persisted. */
  vaultRoot?: string;
  shell: 'electron' | 'host' | 'cli';
  credentials?: CredentialStore;
  clock?: Clock;
  logger?: Logger;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** Watch the vault for changes (the app does; one-shot CLI commands need not). Default: true. */
  watch?: boolean;
}

export type { VaultServices } from './vault-services.js';

export interface Services {
  readonly config: Required<Omit<ServicesConfig, 'vaultRoot'>> & { vaultRoot?: string };
  readonly events: EventHub;
  readonly credentials: CredentialStore;
  readonly version: string;
  /** Team memory sync of the open projects (docs/memory.md#team-sync). */
  readonly team: TeamService;
  vault(): VaultServices;
  /** Points the vault at `root` (null = default) and rebuilds the vault-bound engines. */
  switchVault(root: string | null): Promise<VaultServices>;
  close(): Promise<void>;
}

const packageVersion = (() => {
  try {
    const url = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

async function openVault(
  root: string,
  isDefault: boolean,
  options: { clock: Clock; logger: Logger; watch: boolean; events: EventHub; credentials: CredentialStore; env: NodeJS.ProcessEnv; shell: ServicesConfig['shell'] },
): Promise<VaultServices> {
  const { clock, logger } = options;
  await mkdir(root, { recursive: true });
  const settings = SettingsStore.forVault(root, logger);
  const projects = new ProjectRegistry(root, clock);
  await Promise.all([settings.load(), projects.load()]);
  const memoryConfig = () => resolveMemoryConfig(settings.get().memory);
  const files = new Vault({ root, clock, logger, config: memoryConfig, watch: options.watch, memoryShape: () => settings.get().memoryShape });
  const transcripts = new TranscriptStore({ vaultRoot: root, clock, logger, trashDays: memoryConfig().vault.trashDays });
  const sessions = new SessionCatalog(root, transcripts, memoryConfig);
  // Deleted conversations stay restorable for `trashDays`; older ones go at start-up.
  void transcripts.purgeTrash().catch((error: unknown) => logger.warn('could not empty the conversation trash', { error: (error as Error).message }));
  const agentEnv: AgentEnvironment = {
    vaultRoot: root,
    settings: () => settings.get(),
    config: memoryConfig,
    credentials: options.credentials,
    env: options.env,
    environmentFirst: options.shell === 'cli',
  };
  const chat = new ChatRunner({
    env: agentEnv,
    vaultFiles: files,
    settings,
    transcripts,
    catalog: sessions,
    events: options.events,
    clock,
    logger,
  });
  const offChanges = files.onChanges((changes) => options.events.emit('vault:did-change-files', changes));
  const offState = files.onState((state) => options.events.emit('vault:did-change-state', { root, state }));
  // The opened projects' own CLAUDE.md files are vault files too (docs/architecture.md#data-on-disk); re-scanned
  // whenever a project is opened or forgotten.
  void files.setProjects(projects.list());
  const offProjects = options.events.subscribe((channel) => {
    if (channel === 'project:did-change-list') void files.setProjects(projects.list());
  });
  // Opening scans the whole vault: start it now, let callers that need the catalog await `ready`.
  const ready = files.open().catch((error: unknown) => {
    logger.warn('the vault could not be opened', { root, error: (error as Error).message });
  });
  return {
    root,
    isDefault,
    settings,
    projects,
    memoryConfig,
    files,
    ready,
    transcripts,
    sessions,
    chat,
    agentEnv,
    async close() {
      await chat.close();
      offChanges();
      offState();
      offProjects();
      await ready;
      await files.close();
    },
  };
}

/** The one composition root (docs/architecture.md): builds every engine from one config object. */
export async function createServices(input: ServicesConfig): Promise<Services> {
  const config = {
    ...input,
    credentials: input.credentials ?? new MemoryCredentialStore(),
    clock: input.clock ?? systemClock,
    logger: input.logger ?? silentLogger,
    env: input.env ?? process.env,
    homeDir: input.homeDir ?? os.homedir(),
    watch: input.watch ?? input.shell !== 'cli',
  };
  const pointer = new VaultRootPointer(config.appDataDir);
  const initial = config.vaultRoot
    ? { root: path.resolve(config.vaultRoot), isDefault: false }
    : await pointer.read();
  const events = new EventHub();
  const vaultOptions = { clock: config.clock, logger: config.logger, watch: config.watch, events, credentials: config.credentials, env: config.env, shell: config.shell };
  let current = await openVault(initial.root, initial.isDefault, vaultOptions);
  // The app pulls every team-enabled project at start (docs/memory.md#team-sync); a one-shot CLI command does not.
  const team = new TeamService({ vault: () => current, events, credentials: config.credentials, clock: config.clock, logger: config.logger, openAtStart: config.shell !== 'cli' });

  return {
    config,
    events,
    credentials: config.credentials,
    version: packageVersion,
    team,
    vault: () => current,
    async switchVault(root) {
      const next = await pointer.write(root);
      const previous = current;
      current = await openVault(next.root, next.isDefault, vaultOptions);
      await previous.close();
      events.emit('vault:did-change-root', { root: current.root, isDefault: current.isDefault });
      events.emit('settings:did-change', current.settings.get());
      events.emit('project:did-change-list', current.projects.list());
      return current;
    },
    async close() {
      await team.close();
      await current.close();
    },
  };
}
