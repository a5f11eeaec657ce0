// Runs `strata sync <argv>` from source in a child process, so a STRATA_FAULT crash is a real SIGKILL.
// Only the sync command is loaded (not the whole CLI), to keep each child start short.
import { syncCommand } from '../../../../main/cli/commands/sync.js';

process.exitCode = await syncCommand.run(process.argv.slice(3), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  stopped: new Promise<void>(() => undefined),
});
setImmediate(() => process.exit(process.exitCode));
