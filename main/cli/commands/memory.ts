import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ImportItem, ImportPreview } from '../../../common/domain/portability.js';
import { ProjectPaths } from '../../core/paths/index.js';
import {
  collectMemories, exportFileName, memoriesMarkdown, memoriesZip, previewNotesAt, previewPaste, writeImport, type ImportGuard,
} from '../../core/portability/index.js';
import { vaultSecretScan } from '../../core/secrets/index.js';
import { systemClock } from '../../core/ports.js';
import { writeFileAtomic } from '../../core/fs/index.js';
import type { Vault } from '../../core/vault/index.js';
import { UsageError, type CliIo, type Command } from '../cli-io.js';
import { cliVault } from '../cli-services.js';
import { existingFolder, parseOptions, required, vaultAndJson } from '../options.js';

const USAGE = [
  'strata memory import --project DIR [--vault DIR] [--from chatgpt|claude|other] [--team] [--dry-run] [--json] FILE|FOLDER|ZIP|-',
  '       strata memory export (--project DIR | --all) [--vault DIR] [--format zip|markdown] [--out FILE] [--json]',
].join('\n');

const isDirectory = (p: string) => fs.stat(p).then((s) => s.isDirectory(), () => false);

async function openVault(io: CliIo, vaultFlag: string | undefined): Promise<Vault> {
  const vault = await cliVault(io, vaultFlag);
  await vault.open();
  return vault;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const FIELD_WORDS = { name: 'its name', description: 'its description', text: 'its text', header: 'its frontmatter' } as const;

/** An item held back for a secret: what it looks like and where, never the value. */
function heldBackLine(item: ImportItem): string {
  const where = (item.findings ?? []).map((f) => `${f.label} on line ${f.line} of ${FIELD_WORDS[f.field]}`).join('; ');
  return `${item.fileName}: ${where}`;
}

const HELD_BACK_HINT =
  'leave the secret out of the input and import again; a false alarm? find it with strata scan-secrets FILE, mark it with --not-a-secret as that prints it, and import again';

function printPreview(io: CliIo, preview: ImportPreview): void {
  for (const item of preview.items) io.stdout(item.findings ? `would hold back ${heldBackLine(item)}` : `would write ${item.fileName}  [${item.type}] ${item.name}`);
  for (const s of preview.skipped) io.stdout(`skipped: ${s.what.slice(0, 80)} (${s.why})`);
}

async function runImport(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions(
    argv,
    {
      project: { type: 'string' },
      from: { type: 'string', default: 'other' },
      team: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      ...vaultAndJson,
    },
    { positionals: true },
  );
  const projectDir = await existingFolder(required(values.project, '--project DIR'), '--project');
  if (!['chatgpt', 'claude', 'other'].includes(values.from)) throw new UsageError('--from must be chatgpt, claude or other');
  if (positionals.length !== 1) throw new UsageError('give one FILE (a pasted answer), FOLDER or ZIP of notes, or - for stdin');
  const input = positionals[0]!;
  const now = systemClock.now();
  const vault = await cliVault(io, values.vault);
  // Scanned like any agent write: the vault's rules and its "Not a secret" list (docs/memory.md#secret-scan).
  const guard: ImportGuard = { scan: vaultSecretScan(vault.root), shape: vault.memoryShape() };
  let preview: ImportPreview;
  if (input !== '-' && ((await isDirectory(input)) || input.toLowerCase().endsWith('.zip'))) {
    preview = await previewNotesAt(path.resolve(input), now, guard);
  } else {
    const text = input === '-' ? await readStdin() : await fs.readFile(input, 'utf8').catch(() => {
      throw new UsageError(`no such file: ${input}`);
    });
    try {
      preview = previewPaste(text, values.from as 'chatgpt' | 'claude' | 'other', now, guard);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  if (preview.items.length === 0) {
    io.stderr('strata memory import: no memories found in the input');
    return 2;
  }
  if (values['dry-run']) {
    if (values.json) io.stdout(JSON.stringify(preview));
    else printPreview(io, preview);
    return preview.items.some((i) => i.findings) ? 1 : 0;
  }
  await vault.open();
  try {
    const { memorySlug } = await ProjectPaths.resolve(vault.root, projectDir);
    const result = await writeImport(vault, { projectSlug: memorySlug, team: values.team }, preview.items, guard.scan);
    if (values.json) io.stdout(JSON.stringify({ ...result, skipped: preview.skipped }));
    else {
      for (const p of result.written) io.stdout(`wrote ${p}`);
      for (const p of result.alreadyImported) io.stdout(`already imported ${p}`);
      for (const s of preview.skipped) io.stdout(`skipped: ${s.what.slice(0, 80)} (${s.why})`);
    }
    for (const item of result.heldBack) io.stderr(`strata memory import: held back ${heldBackLine(item)}`);
    if (result.heldBack.length) io.stderr(`strata memory import: ${result.heldBack.length} not imported for a possible secret: ${HELD_BACK_HINT}`);
    return result.heldBack.length ? 1 : 0;
  } finally {
    await vault.close();
  }
}

async function runExport(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseOptions(argv, {
    project: { type: 'string' },
    all: { type: 'boolean', default: false },
    format: { type: 'string', default: 'zip' },
    out: { type: 'string' },
    ...vaultAndJson,
  });
  if (Boolean(values.project) === values.all) throw new UsageError('give --project DIR or --all');
  if (values.format !== 'zip' && values.format !== 'markdown') throw new UsageError('--format must be zip or markdown');
  if (values.format === 'zip' && !values.out) throw new UsageError('--out FILE is required for a zip');
  const projectDir = values.project === undefined ? undefined : await existingFolder(values.project, '--project');
  const vault = await openVault(io, values.vault);
  try {
    const slug = projectDir ? (await ProjectPaths.resolve(vault.root, projectDir)).memorySlug : null;
    const memories = await collectMemories(vault, slug);
    if (memories.length === 0) {
      io.stderr('strata memory export: no memories to export');
      return 1;
    }
    const now = systemClock.now();
    const data = values.format === 'zip' ? memoriesZip(memories, now) : memoriesMarkdown(memories, now);
    if (!values.out) {
      io.stdout(String(data).replace(/\n$/, ''));
      return 0;
    }
    const out = path.resolve(values.out);
    await writeFileAtomic(out, data);
    if (values.json) io.stdout(JSON.stringify({ out, files: memories.map((m) => m.path), suggestedName: exportFileName(projectDir ? path.basename(projectDir) : null, values.format, now) }));
    else io.stdout(`exported ${memories.length} files to ${out}`);
  } finally {
    await vault.close();
  }
  return 0;
}

/** `strata memory import|export` (docs/memory-upkeep.md): bring memory in from elsewhere, take it out. */
export const memoryCommand: Command = {
  name: 'memory',
  summary: 'import memory (a pasted ChatGPT/Claude answer, notes, a zip) or export it (zip or markdown)',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'import') return runImport(rest, io);
    if (sub === 'export') return runExport(rest, io);
    throw new UsageError('use `strata memory import …` or `strata memory export …`');
  },
};
