import { askCommand } from './commands/ask.js';
import { compactCommand } from './commands/compact.js';
import { extractCommand } from './commands/extract.js';
import { hostCommand } from './commands/host.js';
import { importCommand } from './commands/import.js';
import { memoryCommand } from './commands/memory.js';
import { scanSecretsCommand } from './commands/scan-secrets.js';
import { searchCommand } from './commands/search.js';
import { serverCommand } from './commands/server.js';
import { sessionMemoryCommand } from './commands/session-memory.js';
import { syncCommand } from './commands/sync.js';
import { UsageError, type CliIo, type Command } from './cli-io.js';

/** Subcommands of `strata`; each issue adds its own (DESIGN.md "The `strata` command"). */
const commands: Command[] = [hostCommand, askCommand, scanSecretsCommand, importCommand, serverCommand, searchCommand, syncCommand, extractCommand, compactCommand, sessionMemoryCommand, memoryCommand];

function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: strata <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help; most take --json for one JSON document on stdout.',
    'Exit codes: 0 success, 1 the check found something, 2 bad usage or input.',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    io.stdout('strata 0.1.0');
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`strata: unknown command '${name}' (see strata --help)`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`Usage: ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    const isUsage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.stderr(`strata ${name}: ${(error as Error).message.split('\n')[0]}`);
    return isUsage ? 2 : 1;
  }
}

/** The real process as a CliIo; `bin/strata.mjs` runs `runCli(argv, processIo())`. */
export function processIo(): CliIo {
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  return {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    stopped,
  };
}
