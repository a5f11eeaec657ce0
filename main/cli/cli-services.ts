import { promises as fs } from 'node:fs';
import { createServices, createVaultEngines, openCredentialStore, type Services, type VaultEngines } from '../core/services.js';
import { defaultAppDataDir } from '../core/vault/index.js';
import { stderrLogger, type Logger } from '../core/ports.js';
import type { CliIo } from './cli-io.js';
import { existingFolder, resolveVault } from './options.js';

/**
 * The engines for a CLI command. An unusable keychain is a warning, never a failure (docs/architecture.md):
 * secrets then live only in this process, and the API key may still come from the environment. A command
 * that only reads the key (the one-shot forks) passes `warnWithoutKeychain: false`: it stores no secret.
 */
export async function cliServices(
  io: CliIo,
  vault: string | undefined,
  shell: 'host' | 'cli',
  { warnWithoutKeychain = true }: { warnWithoutKeychain?: boolean } = {},
): Promise<Services> {
  const logger: Logger = stderrLogger();
  const credentials = await openCredentialStore();
  if (!credentials.keychain && warnWithoutKeychain) {
    io.stderr('warning: no OS keychain is available; secrets entered now last only until this process ends');
  }
  return createServices({
    appDataDir: defaultAppDataDir(io.env),
    vaultRoot: vault,
    shell,
    credentials: credentials.store,
    logger,
    env: io.env,
  });
}

/** Warnings and errors as single stderr lines; the engines log neither file contents nor secrets. */
function stderrLoggerOf(io: CliIo): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    io.stderr(`${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  return { info: () => undefined, warn: write('warning'), error: write('error') };
}

/**
 * The files of the vault of `--vault DIR` (else the app's), which must exist, for one command: its own
 * memory settings, no watcher, nothing else started; the caller opens it (after `setProjects`, for a
 * command that lists a project's files).
 */
export async function cliVault(io: CliIo, vaultFlag: string | undefined): Promise<VaultEngines['files']> {
  const root = await fs.realpath(await existingFolder(await resolveVault(vaultFlag, io), '--vault'));
  return (await createVaultEngines({ root, logger: stderrLoggerOf(io) })).files;
}
