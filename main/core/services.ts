import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { resolveMemoryConfig, type MemoryConfig } from '../../common/config.js';
import { EventHub } from './events.js';
import { systemClock, silentLogger, type Clock, type CredentialStore, type Logger } from './ports.js';
import { SettingsStore } from './settings/settings-store.js';
import { ProjectRegistry } from './projects/project-registry.js';
import { VaultRootPointer } from './vault/vault-root.js';
import { MemoryCredentialStore } from './auth/credential-store.js';

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
}

/** The engines bound to one vault root; rebuilt when the user points the vault elsewhere. */
export interface VaultServices {
  root: string;
  isDefault: boolean;
  settings: SettingsStore;
  projects: ProjectRegistry;
  memoryConfig(): MemoryConfig;
}

export interface Services {
  readonly config: Required<Omit<ServicesConfig, 'vaultRoot'>> & { vaultRoot?: string };
  readonly events: EventHub;
  readonly credentials: CredentialStore;
  readonly version: string;
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

async function openVault(root: string, isDefault: boolean, clock: Clock, logger: Logger): Promise<VaultServices> {
  const settings = SettingsStore.forVault(root, logger);
  const projects = new ProjectRegistry(root, clock);
  await Promise.all([settings.load(), projects.load()]);
  return {
    root,
    isDefault,
    settings,
    projects,
    memoryConfig: () => resolveMemoryConfig(settings.get().memory),
  };
}

/** The one composition root (DESIGN.md): builds every engine from one config object. */
export async function createServices(input: ServicesConfig): Promise<Services> {
  const config = {
    ...input,
    credentials: input.credentials ?? new MemoryCredentialStore(),
    clock: input.clock ?? systemClock,
    logger: input.logger ?? silentLogger,
    env: input.env ?? process.env,
    homeDir: input.homeDir ?? os.homedir(),
  };
  const pointer = new VaultRootPointer(config.appDataDir);
  const initial = config.vaultRoot
    ? { root: path.resolve(config.vaultRoot), isDefault: false }
    : await pointer.read();
  let current = await openVault(initial.root, initial.isDefault, config.clock, config.logger);
  const events = new EventHub();

  return {
    config,
    events,
    credentials: config.credentials,
    version: packageVersion,
    vault: () => current,
    async switchVault(root) {
      const next = await pointer.write(root);
      current = await openVault(next.root, next.isDefault, config.clock, config.logger);
      events.emit('vault:did-change-root', { root: current.root, isDefault: current.isDefault });
      events.emit('settings:did-change', current.settings.get());
      events.emit('project:did-change-list', current.projects.list());
      return current;
    },
    async close() {},
  };
}
