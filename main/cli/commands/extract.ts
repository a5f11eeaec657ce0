import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runExtractPass } from '../../core/auto-memory/index.js';
import { memoryDirFor } from '../../core/auto-memory/index.js';
import { silentLogger, systemClock } from '../../core/ports.js';
import { scanText } from '../../core/secrets/index.js';
import { defaultAppDataDir, VaultRootPointer } from '../../core/vault/index.js';
import { UsageError, type Command } from '../cli-io.js';
import { vaultMemoryConfig } from './compact.js';
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
      const { values } = parseArgs({
        args: argv,
        options: {
          transcript: { type: 'string' },
          project: { type: 'string' },
          vault: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
        strict: true,
      });
      if (!values.transcript) throw new UsageError('--transcript FILE is required');
      if (!values.project) throw new UsageError('--project DIR is required');
      const transcriptFile = path.resolve(values.transcript);
      const projectDir = path.resolve(values.project);
      if (!existsSync(transcriptFile) || !statSync(transcriptFile).isFile()) throw new UsageError(`no transcript at ${transcriptFile}`);
      if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) throw new UsageError(`no folder at ${projectDir}`);
      const vaultRoot = values.vault ? path.resolve(values.vault) : (await new VaultRootPointer(defaultAppDataDir(io.env)).read()).root;

      const memoryDir = await memoryDirFor(vaultRoot, projectDir);
      const fork = await makeFork({ projectDir, vaultRoot, memoryDir, io });
      const result = await runExtractPass({
        transcriptFile,
        projectDir,
        vaultRoot,
        fork,
        scan: scanText,
        config: (await vaultMemoryConfig(vaultRoot)).autoMemory,
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
