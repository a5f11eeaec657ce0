import { promises as fs } from 'node:fs';
import { resolveMemoryConfig } from '../../common/config.js';
import { systemClock, type Logger } from '../core/ports.js';
import { SettingsStore } from '../core/settings/index.js';
import { Vault } from '../core/vault/index.js';
import type { CliIo } from './cli-io.js';
import { existingFolder, resolveVault } from './options.js';

/** Warnings and errors as single stderr lines; the engines log neither file contents nor secrets. */
function stderrLoggerOf(io: CliIo): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    io.stderr(`${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  return { info: () => undefined, warn: write('warning'), error: write('error') };
}

/**
 * The vault of `--vault DIR` (else the app's) for one command, with its own memory settings and no
 * watcher; the caller opens it (after `setProjects`, for a command that lists a project's files).
 */
export async function cliVault(io: CliIo, vaultFlag: string | undefined): Promise<Vault> {
  const realRoot = await fs.realpath(await existingFolder(await resolveVault(vaultFlag, io), '--vault'));
  const logger = stderrLoggerOf(io);
  const settings = SettingsStore.forVault(realRoot, logger);
  await settings.load();
  return new Vault({ root: realRoot, clock: systemClock, logger, config: () => resolveMemoryConfig(settings.get().memory), watch: false });
}
