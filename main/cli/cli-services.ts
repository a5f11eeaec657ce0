import { createServices, type Services } from '../core/services.js';
import { loadKeytarStore, MemoryCredentialStore } from '../core/auth/index.js';
import { defaultAppDataDir } from '../core/vault/index.js';
import { stderrLogger, type Logger } from '../core/ports.js';
import type { CliIo } from './cli-io.js';

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
  const credentials = await loadKeytarStore();
  if (!credentials && warnWithoutKeychain) {
    io.stderr('warning: no OS keychain is available; secrets entered now last only until this process ends');
  }
  return createServices({
    appDataDir: defaultAppDataDir(io.env),
    vaultRoot: vault,
    shell,
    credentials: credentials ?? new MemoryCredentialStore(),
    logger,
    env: io.env,
  });
}
