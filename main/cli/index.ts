import { appVersion } from '../core/app-version.js';
import { commandEntries, type CommandEntry } from './command-registry.js';
import { Interrupted, UsageError, untilAborted, type CliIo, type Command } from './cli-io.js';
import { processIo } from './process-io.js';

function helpText(): string {
  const width = Math.max(...commandEntries.map((c) => c.name.length));
  return [
    'Usage: strata <command> [options]',
    '',
    'Commands:',
    ...commandEntries.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help; most take --json for one JSON document on stdout.',
    'Exit codes: 0 success, 1 the check found something, 2 bad usage or input, 130/143 stopped by SIGINT/SIGTERM.',
  ].join('\n');
}

/** The command's run; a command that does not stop itself is ended by the CLI at the first signal. */
function runUntilStopped(entry: CommandEntry, command: Command, argv: string[], io: CliIo): Promise<number> {
  const run = command.run(argv, io);
  return entry.stops === 'itself' ? run : untilAborted(run, io.signal);
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    io.stdout(`strata ${appVersion()}`);
    return 0;
  }
  const entry = commandEntries.find((c) => c.name === name);
  if (!entry) {
    io.stderr(`strata: unknown command '${name}' (see strata --help)`);
    return 2;
  }
  try {
    const command = await entry.load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(`Usage: ${command.usage}\n\n${command.summary}`);
      return 0;
    }
    return await runUntilStopped(entry, command, rest, io);
  } catch (error) {
    if (error instanceof Interrupted) {
      io.stderr(`strata ${name}: ${error.message}`);
      return error.exitCode;
    }
    const isUsage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.stderr(`strata ${name}: ${(error as Error).message.split('\n')[0]}`);
    return isUsage ? 2 : 1;
  }
}

/**
 * The `strata` process (`bin/strata.mjs`): runs the command, waits until its output has reached the
 * OS (a pipe would be cut otherwise), then exits — explicitly, because engines may keep handles open.
 */
export async function main(argv: string[]): Promise<never> {
  const io = processIo();
  const code = await runCli(argv, io);
  await io.flush();
  process.exit(code);
}
