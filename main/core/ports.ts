/** The OS-facing ports an engine may need. `main/electron` and `main/host` implement them. */

import { systemClock, type Clock, type Logger } from '../../common/ports.js';

export { systemClock, silentLogger, type Clock, type Logger } from '../../common/ports.js';

/**
 * Secrets (API key, team tokens). Drivers: keytar (OS keychain), Electron safeStorage, in-memory.
 * Values never reach logs, settings files or the renderer.
 */
export interface CredentialStore {
  /** A short name for the UI: `keytar`, `safe-storage`, `memory`. */
  readonly driver: string;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
}

/** One JSON line per entry on stderr, stamped with its time (a server's log is read long after). */
export function stderrLogger(clock: Clock = systemClock): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    process.stderr.write(`${JSON.stringify({ time: new Date(clock.now()).toISOString(), level, message, ...fields })}\n`);
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
