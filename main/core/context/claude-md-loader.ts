import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../../../common/config.js';
import { cleanInstructionText, findIncludes } from './markdown-text.js';
import { rulePaths } from './rule-paths.js';
import { isTextInstructionFile } from './text-extensions.js';

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

/** A rules file with `paths:` frontmatter: attached when the agent reads a matching file, not loaded at the start. */
export interface ConditionalRule {
  path: string;
  kind: InstructionKind;
  patterns: string[];
  /** Patterns are relative to this folder: the one holding `.claude/` (project rules) or the project (user rules). */
  baseDir: string;
}

export interface LoadedInstructions {
  files: InstructionFile[];
  pendingApprovals: PendingApproval[];
  conditionalRules: ConditionalRule[];
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

/**
 * The `.md` files of a rules folder and its subfolders, in name order with each subfolder walked where
 * its name falls (as Claude Code walks them); a folder reached twice through links is walked once.
 */
export async function rulesFiles(rulesDir: string, visited = new Set<string>()): Promise<string[]> {
  const real = await fs.realpath(rulesDir).catch(() => null);
  if (!real || visited.has(real)) return [];
  visited.add(real);
  const entries = await fs.readdir(real, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(rulesDir, entry.name);
    const stat = entry.isSymbolicLink() ? await fs.stat(full).catch(() => null) : entry;
    if (stat?.isDirectory()) out.push(...(await rulesFiles(full, visited)));
    else if (stat?.isFile() && entry.name.endsWith('.md')) out.push(full);
  }
  return out;
}

/**
 * The CLAUDE.md loader of SPEC §6: user `<vault>/CLAUDE.md` and the `.md` files under `<vault>/rules/`, then for each
 * folder from the root down to the project its `CLAUDE.md`, `.claude/CLAUDE.md`, the `.md` files under `.claude/rules/` (subfolders too)
 * and `CLAUDE.local.md`. Each file is followed by its `@` includes (depth-first); a file is loaded once
 * (cycles end there); missing, unreadable and binary files, and names with a non-text extension, are
 * skipped silently. Rules with `paths:` frontmatter are returned as `conditionalRules` instead.
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
  const conditionalRules: ConditionalRule[] = [];
  const seen = new Set<string>();

  const load = async (file: string, kind: InstructionKind, depth: number, includedFrom: string | null): Promise<void> => {
    if (depth > maxDepth || !isTextInstructionFile(file)) return;
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

  const loadRules = async (rulesDir: string, kind: InstructionKind, baseDir: string) => {
    for (const rule of await rulesFiles(rulesDir)) {
      const raw = await fs.readFile(rule, 'utf8').catch(() => null);
      const patterns = raw === null ? null : rulePaths(raw);
      if (patterns) {
        const real = await fs.realpath(rule).catch(() => rule);
        if (!conditionalRules.some((r) => r.path === real)) conditionalRules.push({ path: real, kind, patterns, baseDir });
      } else {
        await load(rule, kind, 0, null);
      }
    }
  };

  await load(path.join(options.vaultRoot, 'CLAUDE.md'), 'user', 0, null);
  await loadRules(path.join(options.vaultRoot, 'rules'), 'user', projectDir);
  for (const dir of foldersDownTo(projectDir)) {
    await load(path.join(dir, 'CLAUDE.md'), 'project', 0, null);
    await load(path.join(dir, '.claude', 'CLAUDE.md'), 'project', 0, null);
    await loadRules(path.join(dir, '.claude', 'rules'), 'project', dir);
    await load(path.join(dir, 'CLAUDE.local.md'), 'local', 0, null);
  }
  return { files, pendingApprovals, conditionalRules };
}
