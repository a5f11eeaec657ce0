import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
// Not through services.ts, nor the vault engine: every command parses its flags here, and `strata scan-secrets`
// must start without loading the app.
import { appVaultRoot } from '../core/light-engines.js';
import { defaultAppDataDir } from '../core/vault-root.js';
import { UsageError, type CliIo } from './cli-io.js';

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * Every `strata` command's flags go through here: `node:util` parseArgs, strict, so an unknown flag or a
 * flag without its value is bad usage (exit 2: runCli maps parseArgs' `ERR_PARSE_ARGS_*` codes). The
 * checks below give the same one-line message for the same mistake in every command.
 */
export function parseOptions<const O extends OptionsConfig>(argv: readonly string[], options: O, shape: { positionals?: boolean } = {}) {
  return parseArgs({ args: [...argv], options, allowPositionals: shape.positionals ?? false, strict: true });
}

/** `--vault DIR` and `--json`, which most commands take (strata --help says so). */
export const vaultAndJson = {
  vault: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

/** A flag the command cannot run without: `--project DIR is required`. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

/** A flag naming a folder that must exist, resolved to an absolute path. */
export async function existingFolder(value: string, flag: string): Promise<string> {
  const resolved = path.resolve(value);
  if (!(await fs.stat(resolved).then((s) => s.isDirectory(), () => false))) throw new UsageError(`${flag}: no such folder: ${resolved}`);
  return resolved;
}

/** A flag naming a file that must exist, resolved to an absolute path. */
export async function existingFile(value: string, flag: string): Promise<string> {
  const resolved = path.resolve(value);
  if (!(await fs.stat(resolved).then((s) => s.isFile(), () => false))) throw new UsageError(`${flag}: no such file: ${resolved}`);
  return resolved;
}

/** `--vault DIR`, else the app's vault root (the pointer in the app data folder, or that folder). */
export async function resolveVault(vault: string | undefined, io: CliIo): Promise<string> {
  if (vault) return path.resolve(vault);
  return appVaultRoot(defaultAppDataDir(io.env));
}

/** A whole-number flag within `min`…`max`, or undefined when it was not given. */
export function wholeNumber(raw: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${range}, not ${JSON.stringify(raw)}`);
  }
  return n;
}
