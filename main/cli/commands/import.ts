import os from 'node:os';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { importClaudeCode } from '../../core/transcripts/index.js';
import { UsageError, type Command } from '../cli-io.js';
import { parseOptions, resolveVault, vaultAndJson } from '../options.js';

/** `strata import claude-code` (docs/architecture.md#the-strata-command): Claude Code's transcripts and memory into the vault. */
export const importCommand: Command = {
  name: 'import',
  summary: "bring Claude Code's transcripts and memory folders into the vault",
  usage: 'strata import claude-code [--from DIR] [--vault DIR] [--json]',
  async run(argv, io) {
    const { values, positionals } = parseOptions(argv, { from: { type: 'string' }, ...vaultAndJson }, { positionals: true });
    if (positionals.length !== 1 || positionals[0] !== 'claude-code') {
      throw new UsageError(`the only source is claude-code (usage: ${this.usage})`);
    }
    const from = path.resolve(values.from ?? path.join(io.env.HOME ?? os.homedir(), '.claude'));
    const vaultRoot = await resolveVault(values.vault, io);
    try {
      const counts = await importClaudeCode({ from, vaultRoot });
      if (values.json) {
        io.stdout(JSON.stringify(counts));
      } else {
        io.stdout(
          `Imported ${counts.transcripts} transcript(s) and ${counts.memoryFiles} memory file(s) from ${counts.projects} project(s) of ${from} into ${vaultRoot}; ` +
            `${counts.skipped} skipped (the vault's copy was as new or newer).`,
        );
      }
      return 0;
    } catch (error) {
      if (error instanceof AppFailure && (error.code === 'not_found' || error.code === 'invalid_request')) {
        io.stderr(`strata import: ${error.message}`);
        return 2;
      }
      throw error;
    }
  },
};
