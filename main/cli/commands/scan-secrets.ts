import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { scanPaths, secretRules, type FileScanResult, type SecretAllowanceStore } from '../../core/secrets/index.js';
import { secretAllowances } from '../../core/light-engines.js';
import { UsageError, type CliIo, type Command } from '../cli-io.js';
import { parseOptions, resolveVault, vaultAndJson } from '../options.js';

function humanLines(files: FileScanResult[]): string[] {
  const lines: string[] = [];
  for (const file of files) {
    if (file.skipped) lines.push(`${file.path}: ${file.skipped}, not scanned`);
    for (const f of file.findings) lines.push(`${file.path}:${f.line}:${f.column} ${f.rule}`);
  }
  const total = files.reduce((n, f) => n + f.findings.length, 0);
  const withFindings = files.filter((f) => f.findings.length > 0).length;
  const scanned = `${files.length} file${files.length === 1 ? '' : 's'}`;
  lines.push(total === 0 ? `no secrets found in ${scanned}` : `${total} possible secret${total === 1 ? '' : 's'} in ${withFindings} of ${scanned}`);
  if (total > 0) lines.push('a false alarm? add a strata:allow comment on its line, or: strata scan-secrets --not-a-secret FILE:LINE:COLUMN:RULE');
  return lines;
}

// `notes/b.md:3:41:github-pat` (or without the column, `notes/b.md:3:github-pat`): split from the right, so a
// path may itself contain colons.
function parseFinding(spec: string): { file: string; line: number; column?: number; rule: string } {
  const match = /^(.+?):(\d{1,9})(?::(\d{1,9}))?:([a-z0-9-]{1,64})$/.exec(spec);
  if (!match) throw new UsageError(`--not-a-secret takes FILE:LINE:COLUMN:RULE as printed by a scan, not ${JSON.stringify(spec)}`);
  const rule = match[4]!;
  if (!secretRules.some((r) => r.id === rule)) throw new UsageError(`no scanner rule named ${rule}`);
  return { file: match[1]!, line: Number(match[2]), ...(match[3] === undefined ? {} : { column: Number(match[3]) }), rule };
}

/** `--not-a-secret FILE:LINE:COLUMN:RULE`: re-scans the file and records the one value the rule finds there (never the value). */
async function markNotASecret(spec: string, store: SecretAllowanceStore, json: boolean, io: CliIo): Promise<number> {
  const { file, line, column, rule } = parseFinding(spec);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  const at = column === undefined ? `line ${line}` : `line ${line}, column ${column}`;
  let marked: number;
  try {
    marked = await store.allowInText(text, { rule, line, ...(column === undefined ? {} : { column }), where: `strata scan-secrets: ${path.resolve(file)}` });
  } catch (error) {
    // Two values on the line and no column: bad usage, with the scan's own wording of what to give.
    if (error instanceof AppFailure && error.code === 'invalid_request') throw new UsageError(`${error.message} (FILE:LINE:COLUMN:RULE, as a scan prints it)`);
    throw error;
  }
  if (marked === 0) throw new UsageError(`rule ${rule} finds nothing at ${at} of ${file}`);
  io.stdout(json ? JSON.stringify({ marked: { file, line, ...(column === undefined ? {} : { column }), rule } }) : `marked ${rule} at ${at} of ${file} as not a secret (revoke it in Settings)`);
  return 0;
}

/**
 * `strata scan-secrets PATH… [--json] [--vault DIR]` (docs/architecture.md): rule and line per finding, never the
 * value; exit 1 iff any finding, 2 on bad usage or when a file could not be read. Findings the user marked
 * "Not a secret" in the vault, and lines with a `strata:allow` comment, are not reported.
 * `--not-a-secret FILE:LINE:COLUMN:RULE` marks one value.
 */
export const scanSecretsCommand: Command = {
  name: 'scan-secrets',
  summary: 'scan files and folders for secrets (folders recursively, symlinks not followed)',
  usage: 'strata scan-secrets PATH… [--json] [--vault DIR] | --not-a-secret FILE:LINE:COLUMN:RULE [--vault DIR]',
  async run(argv, io) {
    const { values, positionals } = parseOptions(argv, { ...vaultAndJson, 'not-a-secret': { type: 'string' } }, { positionals: true });
    const store = secretAllowances(await resolveVault(values.vault, io));
    if (values['not-a-secret'] !== undefined) {
      if (positionals.length > 0) throw new UsageError('--not-a-secret marks one finding; give no paths to scan with it');
      return markNotASecret(values['not-a-secret'], store, values.json, io);
    }
    if (positionals.length === 0) throw new UsageError('give at least one file or folder to scan');
    // lstat, not exists: a dangling symlink given by name is still a path that exists (and is skipped).
    const missing = positionals.find((p) => !existsSync(p) && !isLink(p));
    if (missing !== undefined) throw new UsageError(`no such file or folder: ${missing}`);

    // A damaged list is reported as such, not as files that could not be scanned.
    try {
      store.list();
    } catch {
      throw new UsageError(`the vault's "Not a secret" list cannot be read: ${store.file}`);
    }
    const files = await scanPaths(positionals, { allowed: (rule, value) => store.isAllowed(rule, value), honorAllowComments: true });
    if (values.json) {
      io.stdout(JSON.stringify({ files: files.map((f) => ({ path: f.path, findings: f.findings.map(({ rule, line, column }) => ({ rule, line, column })) })) }));
    } else {
      for (const line of humanLines(files)) io.stdout(line);
    }
    if (files.some((f) => f.findings.length > 0)) return 1;
    // A file that could not be read was not proven clean.
    const unreadable = files.filter((f) => f.skipped === 'unreadable');
    if (unreadable.length > 0) {
      io.stderr(`strata scan-secrets: could not read ${unreadable.length} file(s), first ${unreadable[0]!.path}`);
      return 2;
    }
    return 0;
  },
};

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
