/**
 * The clock and the log sink, the two ports every process shares (the app's engines, the sync server).
 * Kept in common/ so server/ depends on nothing of the app's (docs/architecture.md#what-may-import-what).
 */

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A log sink that never receives secrets or file contents; tests route it to fail on errors. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
