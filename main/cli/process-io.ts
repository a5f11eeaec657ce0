import { Interrupted, type CliIo } from './cli-io.js';

/** The real process as a CliIo, plus `flush()`: resolves once everything written has reached the OS. */
export interface ProcessIo extends CliIo {
  signal: AbortSignal;
  flush(): Promise<void>;
}

/** Write callbacks run in order, so an empty write's callback means every earlier write was handed to the OS. */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * stdout and stderr of the process. A pipe is asynchronous in Node: `process.exit` right after a large
 * write cuts it at 64 KiB, so the CLI awaits `flush()` first (it covers the loggers' direct writes too).
 * A reader that went away (`| head`) is no error of ours: EPIPE ends that output quietly.
 */
export function processIo(): ProcessIo {
  const controller = new AbortController();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }

  // First SIGINT/SIGTERM: abort, so the command ends cleanly. Second: end now (the user insists).
  const onSignal = (name: 'SIGINT' | 'SIGTERM') => {
    if (controller.signal.aborted) process.exit((controller.signal.reason as Interrupted).exitCode);
    controller.abort(new Interrupted(name));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  return {
    stdout: (line) => void process.stdout.write(`${line}\n`),
    stderr: (line) => void process.stderr.write(`${line}\n`),
    env: process.env,
    stopped: new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true })),
    signal: controller.signal,
    async flush() {
      await Promise.all([drained(process.stdout), drained(process.stderr)]);
    },
  };
}
