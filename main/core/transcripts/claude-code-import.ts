import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { writeFileAtomic } from '../fs/index.js';
import { isValidSessionId } from '../paths/index.js';

export interface ImportOptions {
  /** Claude Code's data folder (`~/.claude`). */
  from: string;
  vaultRoot: string;
}

/** What an import did; `skipped` counts files whose copy in the vault was as new or newer. */
export interface ImportCounts {
  projects: number;
  transcripts: number;
  memoryFiles: number;
  skipped: number;
}

/** Claude Code's project folder names are slugs (docs/memory.md#where-things-live): nothing else is imported. */
const SLUG = /^[A-Za-z0-9-]+$/;
/** Claude Code writes a subagent's transcript to `<session>/subagents/[<group>/]agent-<id>.jsonl`, its description next to it. */
const SIDECHAIN_TRANSCRIPT = /^agent-[A-Za-z0-9._-]+\.jsonl$/;
const SIDECHAIN_META = /^agent-[A-Za-z0-9._-]+\.meta\.json$/;

async function listMemoryFiles(dir: string, rel = ''): Promise<string[]> {
  const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const child = rel ? path.join(rel, entry.name) : entry.name;
    // Symlinks are not followed: an import copies Claude Code's own files, never what they point at.
    if (entry.isDirectory()) out.push(...(await listMemoryFiles(dir, child)));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

/**
 * Copies one file unless the vault's copy is at least as new; the copy keeps the source's
 * modification time, so importing twice copies nothing the second time.
 */
async function copyIfNewer(source: string, target: string, mode: number): Promise<boolean> {
  const [src, dst] = await Promise.all([fs.stat(source), fs.stat(target).catch(() => null)]);
  // Whole milliseconds: utimes cannot always store the source's sub-millisecond part.
  if (dst && Math.floor(dst.mtimeMs) >= Math.floor(src.mtimeMs)) return false;
  const data = await fs.readFile(source);
  if (dst && dst.size === data.length && (await fs.readFile(target)).equals(data)) return false;
  await writeFileAtomic(target, data, { mode, dirMode: 0o700 });
  await fs.utimes(target, src.atime, src.mtime);
  return true;
}

/**
 * `strata import claude-code`: brings Claude Code's transcripts (`projects/<slug>/*.jsonl`), its
 * subagents' sidechain transcripts (`projects/<slug>/<session>/subagents/…`) and memory folders
 * (`projects/<slug>/memory/**`) into the vault's identical layout, unchanged, never
 * overwriting a file that is newer in the vault.
 */
export async function importClaudeCode(options: ImportOptions): Promise<ImportCounts> {
  const from = path.resolve(options.from);
  const vault = path.resolve(options.vaultRoot);
  const sourceProjects = path.join(from, 'projects');
  const stat = await fs.stat(sourceProjects).catch(() => null);
  if (!stat?.isDirectory()) throw new AppFailure('not_found', `No Claude Code data in ${from} (it has no projects folder)`);
  const [realFrom, realVault] = await Promise.all([fs.realpath(from), fs.realpath(vault).catch(() => vault)]);
  if (realFrom === realVault) throw new AppFailure('invalid_request', `The vault is ${from} itself: there is nothing to import`);

  const counts: ImportCounts = { projects: 0, transcripts: 0, memoryFiles: 0, skipped: 0 };
  const projects = await fs.readdir(sourceProjects, { withFileTypes: true });
  for (const project of projects) {
    if (!project.isDirectory() || !SLUG.test(project.name)) continue;
    const sourceDir = path.join(sourceProjects, project.name);
    const targetDir = path.join(vault, 'projects', project.name);
    let touched = false;
    for (const entry of await fs.readdir(sourceDir, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
      const copied = await copyIfNewer(path.join(sourceDir, entry.name), path.join(targetDir, entry.name), 0o600);
      if (copied) counts.transcripts++;
      else counts.skipped++;
      touched = true;
    }
    // Sidechain (subagent) transcripts of each session, with their metadata files.
    for (const session of await fs.readdir(sourceDir, { withFileTypes: true })) {
      if (!session.isDirectory() || session.name === 'memory' || !isValidSessionId(session.name)) continue;
      const subagents = path.join(sourceDir, session.name, 'subagents');
      if (!(await fs.lstat(subagents).catch(() => null))?.isDirectory()) continue;
      for (const rel of await listMemoryFiles(subagents)) {
        const name = path.basename(rel);
        const transcript = SIDECHAIN_TRANSCRIPT.test(name);
        if (!transcript && !SIDECHAIN_META.test(name)) continue;
        const copied = await copyIfNewer(path.join(subagents, rel), path.join(targetDir, session.name, 'subagents', rel), 0o600);
        if (transcript) {
          if (copied) counts.transcripts++;
          else counts.skipped++;
        }
        touched = true;
      }
    }
    const memoryDir = path.join(sourceDir, 'memory');
    const memoryStat = await fs.lstat(memoryDir).catch(() => null);
    if (memoryStat?.isDirectory()) {
      for (const rel of await listMemoryFiles(memoryDir)) {
        const copied = await copyIfNewer(path.join(memoryDir, rel), path.join(targetDir, 'memory', rel), 0o600);
        if (copied) counts.memoryFiles++;
        else counts.skipped++;
        touched = true;
      }
    }
    if (touched) counts.projects++;
  }
  return counts;
}
