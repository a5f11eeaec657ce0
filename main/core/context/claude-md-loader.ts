import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../../../common/config.js';
import { cleanInstructionText, findIncludes } from './markdown-text.js';

/** Who wrote an instruction file, which decides its header and whether it may include outside files. */
export type InstructionKind = 'user' | 'project' | 'local';

/** One loaded instruction file, in load order (later ones take precedence, SPEC §6). */
export interface InstructionFile {
  /** Absolute real path. */
  path: string;
  kind: InstructionKind;
  /** The text the model sees: frontmatter and HTML comments stripped. */
  content: string;
  /** Characters of the file as stored. */
  chars: number;
  /** Over `largeFileChars` (40,000): flagged in the vault as costly (SPEC §6). */
  large: boolean;
  /** 0 for a file found by location; 1–4 for `@` includes. */
  depth: number;
  /** The file whose `@path` brought this one in, or null. */
  includedFrom: string | null;
}

/** An include of a project file that points outside the project folder and waits for the user's approval. */
export interface PendingApproval {
  /** Absolute real path of the included file: the value to add to `approvedExternalIncludes`. */
  path: string;
  includedFrom: string;
}

export interface LoadInstructionsOptions {
  /** The vault root; the user's instructions are `<vault>/CLAUDE.md`. */
  vaultRoot: string;
  /** The opened project folder. */
  projectDir: string;
  /** For `@~/…` includes; default `os.homedir()`. */
  homeDir?: string;
  /** Real paths outside the project the user approved for this project (persisted by the caller). */
  approvedExternalIncludes?: Iterable<string>;
  /** `config.instructions`: includes at depths 1..maxIncludeDepth load; deeper ones are ignored. */
  maxIncludeDepth?: number;
  largeFileChars?: number;
}

export interface LoadedInstructions {
  files: InstructionFile[];
  pendingApprovals: PendingApproval[];
}

const isInside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** Folders from the file-system root down to `dir`, inclusive. */
function foldersDownTo(dir: string): string[] {
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) return chain;
  }
}

async function rulesFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(path.join(dir, '.claude', 'rules')).catch(() => [] as string[]);
  return names
    .filter((n) => n.endsWith('.md'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((n) => path.join(dir, '.claude', 'rules', n));
}

/**
 * The CLAUDE.md loader of SPEC §6: user `<vault>/CLAUDE.md`, then for each folder from the root down to
 * the project its `CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/*.md` (sorted) and `CLAUDE.local.md`.
 * Each file is followed by its `@` includes (depth-first); a file is loaded once (cycles end there);
 * missing, unreadable and binary files are skipped silently.
 */
export async function loadInstructions(options: LoadInstructionsOptions): Promise<LoadedInstructions> {
  const maxDepth = options.maxIncludeDepth ?? defaultMemoryConfig.instructions.maxIncludeDepth;
  const largeChars = options.largeFileChars ?? defaultMemoryConfig.instructions.largeFileChars;
  const home = options.homeDir ?? os.homedir();
  const approved = new Set(options.approvedExternalIncludes ?? []);
  const resolvedProject = path.resolve(options.projectDir);
  const projectDir = await fs.realpath(resolvedProject).catch(() => resolvedProject);

  const files: InstructionFile[] = [];
  const pendingApprovals: PendingApproval[] = [];
  const seen = new Set<string>();

  const load = async (file: string, kind: InstructionKind, depth: number, includedFrom: string | null): Promise<void> => {
    if (depth > maxDepth) return;
    const real = await fs.realpath(file).catch(() => null);
    if (!real || seen.has(real)) return;
    const stat = await fs.stat(real).catch(() => null);
    if (!stat?.isFile()) return;
    const raw = await fs.readFile(real, 'utf8').catch(() => null);
    if (raw === null || raw.includes('\u0000')) return;
    seen.add(real);
    const content = cleanInstructionText(raw);
    if (content === '') return;
    files.push({ path: real, kind, content, chars: raw.length, large: raw.length > largeChars, depth, includedFrom });
    for (const include of findIncludes(content)) {
      const target = include.startsWith('~/') ? path.join(home, include.slice(2)) : path.resolve(path.dirname(real), include);
      const realTarget = await fs.realpath(target).catch(() => null);
      if (!realTarget) continue;
      // User files may include anything; project and local files need approval to reach outside the project.
      if (kind !== 'user' && !isInside(projectDir, realTarget) && !approved.has(realTarget)) {
        if (depth + 1 <= maxDepth && !seen.has(realTarget) && !pendingApprovals.some((p) => p.path === realTarget)) {
          pendingApprovals.push({ path: realTarget, includedFrom: real });
        }
        continue;
      }
      await load(realTarget, kind, depth + 1, real);
    }
  };

  await load(path.join(options.vaultRoot, 'CLAUDE.md'), 'user', 0, null);
  for (const dir of foldersDownTo(projectDir)) {
    await load(path.join(dir, 'CLAUDE.md'), 'project', 0, null);
    await load(path.join(dir, '.claude', 'CLAUDE.md'), 'project', 0, null);
    for (const rule of await rulesFiles(dir)) await load(rule, 'project', 0, null);
    await load(path.join(dir, 'CLAUDE.local.md'), 'local', 0, null);
  }
  return { files, pendingApprovals };
}
