import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A bad flag or argument: exit 2 with its message as the one stderr line. */
export class UsageError extends Error {}

/** What a command needs from the process; tests pass their own to read the output. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands await it. */
  stopped: Promise<void>;
  /**
   * Aborted at the first SIGINT/SIGTERM, with an `Interrupted` as its reason: a command that must save
   * state ends on it cleanly (registry `stops: 'itself'`). Absent in tests that never stop a command.
   */
  signal?: AbortSignal;
}

/** The reason of `CliIo.signal`: which signal asked the command to end. */
export class Interrupted extends Error {
  constructor(readonly signalName: 'SIGINT' | 'SIGTERM') {
    super(`stopped by ${signalName}`);
    this.name = 'Interrupted';
  }

  /** The shell's convention: 128 + the signal number. */
  get exitCode(): number {
    return this.signalName === 'SIGINT' ? 130 : 143;
  }
}

/** `work`, unless `signal` aborts first: then its reason is thrown (the work itself may go on, unobserved). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Returns the exit code: 0 ok, 1 the check found something, 2 bad usage or input. */
  run(argv: string[], io: CliIo): Promise<number>;
}

/** The package root, found from this file's location so the CLI works from any folder. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'common'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Strata package folder');
    dir = parent;
  }
}
