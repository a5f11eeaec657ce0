import { existsSync, lstatSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { scanPaths, type FileScanResult } from '../../core/secrets/index.js';
import { UsageError, type Command } from '../cli-io.js';

function humanLines(files: FileScanResult[]): string[] {
  const lines: string[] = [];
  for (const file of files) {
    if (file.skipped) lines.push(`${file.path}: ${file.skipped}, not scanned`);
    for (const f of file.findings) lines.push(`${file.path}:${f.line} ${f.rule}`);
  }
  const total = files.reduce((n, f) => n + f.findings.length, 0);
  const withFindings = files.filter((f) => f.findings.length > 0).length;
  const scanned = `${files.length} file${files.length === 1 ? '' : 's'}`;
  lines.push(total === 0 ? `no secrets found in ${scanned}` : `${total} possible secret${total === 1 ? '' : 's'} in ${withFindings} of ${scanned}`);
  return lines;
}

/**
 * `strata scan-secrets PATH… [--json]` (DESIGN.md): rule and line per finding, never the value; exit 1
 * iff any finding, 2 on bad usage or when a file could not be read.
 */
export const scanSecretsCommand: Command = {
  name: 'scan-secrets',
  summary: 'scan files and folders for secrets (folders recursively, symlinks not followed)',
  usage: 'strata scan-secrets PATH… [--json]',
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean', default: false } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new UsageError('give at least one file or folder to scan');
    // lstat, not exists: a dangling symlink given by name is still a path that exists (and is skipped).
    const missing = positionals.find((p) => !existsSync(p) && !isLink(p));
    if (missing !== undefined) throw new UsageError(`no such file or folder: ${missing}`);

    const files = await scanPaths(positionals);
    if (values.json) {
      io.stdout(JSON.stringify({ files: files.map((f) => ({ path: f.path, findings: f.findings.map(({ rule, line }) => ({ rule, line })) })) }));
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
