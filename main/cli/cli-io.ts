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
