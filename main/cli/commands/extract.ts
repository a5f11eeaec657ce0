import { runExtractPass } from '../../core/auto-memory/index.js';
import { memoryDirFor } from '../../core/auto-memory/index.js';
import { silentLogger, systemClock } from '../../core/ports.js';
import { scanText } from '../../core/secrets/index.js';
import type { Command } from '../cli-io.js';
import { existingFile, existingFolder, parseOptions, required, resolveVault, vaultAndJson } from '../options.js';
import { readVaultMemoryConfig } from '../../core/services.js';
import { cliExtractFork, type ExtractForkFactory } from '../agent-forks.js';

/**
 * `strata extract --transcript FILE --project DIR [--vault DIR] [--json]` (docs/architecture.md): one extraction pass
 * through the model over the whole transcript, no throttle.
 */
export function createExtractCommand(makeFork: ExtractForkFactory = cliExtractFork): Command {
  return {
    name: 'extract',
    summary: 'one memory-extraction pass through the model over a whole transcript',
    usage: 'strata extract --transcript FILE --project DIR [--vault DIR] [--json]',
    async run(argv, io) {
      const { values } = parseOptions(argv, { transcript: { type: 'string' }, project: { type: 'string' }, ...vaultAndJson });
      const transcriptFlag = required(values.transcript, '--transcript FILE');
      const projectFlag = required(values.project, '--project DIR');
      const transcriptFile = await existingFile(transcriptFlag, '--transcript');
      const projectDir = await existingFolder(projectFlag, '--project');
      const vaultRoot = await resolveVault(values.vault, io);

      const memoryDir = await memoryDirFor(vaultRoot, projectDir);
      const fork = await makeFork({ projectDir, vaultRoot, memoryDir, io });
      const result = await runExtractPass({
        transcriptFile,
        projectDir,
        vaultRoot,
        fork,
        scan: scanText,
        config: (await readVaultMemoryConfig(vaultRoot)).autoMemory,
        // A failed pass is thrown and printed as the one stderr line; nothing else goes to stderr.
        logger: silentLogger,
        clock: systemClock,
      });
      const { written, deleted, denied } = result;
      if (values.json) {
        io.stdout(JSON.stringify({ written, deleted, denied }));
      } else {
        io.stdout(`memory folder: ${result.memoryDir}`);
        for (const p of written) io.stdout(`written  ${p}`);
        for (const p of deleted) io.stdout(`deleted  ${p}`);
        for (const d of denied) io.stdout(`denied   ${d.path}: ${d.reason}`);
        if (!written.length && !deleted.length && !denied.length) io.stdout('nothing to save');
      }
      return 0;
    },
  };
}

export const extractCommand: Command = createExtractCommand();
