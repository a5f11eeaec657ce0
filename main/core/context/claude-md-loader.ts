import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../../../common/config.js';
import { cleanInstructionText, findIncludes } from './markdown-text.js';
import { matchesRulePaths, rulePaths } from './rule-paths.js';
import { isTextInstructionFile } from './text-extensions.js';

/** Who wrote an instruction file, which decides its header and whether it may include outside files. */
export type InstructionKind = 'user' | 'project' | 'local';

/** One loaded instruction file, in load order (later ones take precedence, docs/memory.md#instructions). */
export interface InstructionFile {
  /** Absolute real path. */
  path: string;
  kind: InstructionKind;
  /** The text the model sees: frontmatter and HTML comments stripped. */
  content: string;
  /** Characters of the file as stored. */
  chars: number;
  /** Over `largeFileChars` (40,000): flagged in the vault as costly (docs/memory.md#instructions). */
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
 * Reads instruction files and their `@` includes into `files`, each real path once (cycles end there);
 * missing, unreadable and binary files, and names with a non-text extension, are skipped silently.
 * Shared by the start of a session and by the files attached when the agent reads under a subfolder.
 */
export class InstructionReader {
  readonly files: InstructionFile[] = [];
  readonly pendingApprovals: PendingApproval[] = [];
  readonly conditionalRules: ConditionalRule[] = [];
  private readonly maxDepth: number;
  private readonly largeChars: number;
  private readonly home: string;
  private readonly approved: Set<string>;

  constructor(
    options: Omit<LoadInstructionsOptions, 'vaultRoot' | 'projectDir'>,
    /** The project's real path: project and local files may include only inside it without approval. */
    readonly projectDir: string,
    /** Real paths already loaded (and so never loaded again). */
    readonly seen = new Set<string>(),
  ) {
    this.maxDepth = options.maxIncludeDepth ?? defaultMemoryConfig.instructions.maxIncludeDepth;
    this.largeChars = options.largeFileChars ?? defaultMemoryConfig.instructions.largeFileChars;
    this.home = options.homeDir ?? os.homedir();
    this.approved = new Set(options.approvedExternalIncludes ?? []);
  }

  async load(file: string, kind: InstructionKind, depth = 0, includedFrom: string | null = null): Promise<void> {
    if (depth > this.maxDepth || !isTextInstructionFile(file)) return;
    const real = await fs.realpath(file).catch(() => null);
    if (!real || this.seen.has(real)) return;
    const stat = await fs.stat(real).catch(() => null);
    if (!stat?.isFile()) return;
    const raw = await fs.readFile(real, 'utf8').catch(() => null);
    if (raw === null || raw.includes('\u0000')) return;
    this.seen.add(real);
    const content = cleanInstructionText(raw);
    if (content === '') return;
    this.files.push({ path: real, kind, content, chars: raw.length, large: raw.length > this.largeChars, depth, includedFrom });
    for (const include of findIncludes(content)) {
      const target = include.startsWith('~/') ? path.join(this.home, include.slice(2)) : path.resolve(path.dirname(real), include);
      const realTarget = await fs.realpath(target).catch(() => null);
      if (!realTarget) continue;
      // User files may include anything; project and local files need approval to reach outside the project.
      if (kind !== 'user' && !isInside(this.projectDir, realTarget) && !this.approved.has(realTarget)) {
        if (depth + 1 <= this.maxDepth && !this.seen.has(realTarget) && !this.pendingApprovals.some((p) => p.path === realTarget)) {
          this.pendingApprovals.push({ path: realTarget, includedFrom: real });
        }
        continue;
      }
      await this.load(realTarget, kind, depth + 1, real);
    }
  }

  /**
   * A rules folder: rules without `paths:` load now; those with it are kept in `conditionalRules`,
   * or, with `forFile`, load now when that file matches them.
   */
  async loadRules(rulesDir: string, kind: InstructionKind, baseDir: string, forFile?: string): Promise<void> {
    for (const rule of await rulesFiles(rulesDir)) {
      const raw = await fs.readFile(rule, 'utf8').catch(() => null);
      const patterns = raw === null ? null : rulePaths(raw);
      if (!patterns) {
        await this.load(rule, kind);
        continue;
      }
      const real = await fs.realpath(rule).catch(() => rule);
      if (forFile !== undefined) {
        if (matchesRulePaths(patterns, baseDir, forFile)) await this.load(rule, kind);
      } else if (!this.conditionalRules.some((r) => r.path === real)) {
        this.conditionalRules.push({ path: real, kind, patterns, baseDir });
      }
    }
  }
}

/** Folders from the file-system root down to `dir`, inclusive. */
export function foldersDownTo(dir: string): string[] {
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) return chain;
  }
}

/**
 * The CLAUDE.md loader of docs/memory.md#instructions: user `<vault>/CLAUDE.md` and the `.md` files under `<vault>/rules/`,
 * then for each folder from the root down to the project its `CLAUDE.md`, `.claude/CLAUDE.md`, the
 * `.md` files under `.claude/rules/` (subfolders too) and `CLAUDE.local.md`. Each file is followed by
 * its `@` includes (depth-first). Rules with `paths:` frontmatter are returned as `conditionalRules`.
 */
export async function loadInstructions(options: LoadInstructionsOptions): Promise<LoadedInstructions> {
  const resolvedProject = path.resolve(options.projectDir);
  const projectDir = await fs.realpath(resolvedProject).catch(() => resolvedProject);
  const reader = new InstructionReader(options, projectDir);
  await reader.load(path.join(options.vaultRoot, 'CLAUDE.md'), 'user');
  await reader.loadRules(path.join(options.vaultRoot, 'rules'), 'user', projectDir);
  for (const dir of foldersDownTo(projectDir)) {
    await reader.load(path.join(dir, 'CLAUDE.md'), 'project');
    await reader.load(path.join(dir, '.claude', 'CLAUDE.md'), 'project');
    await reader.loadRules(path.join(dir, '.claude', 'rules'), 'project', dir);
    await reader.load(path.join(dir, 'CLAUDE.local.md'), 'local');
  }
  return { files: reader.files, pendingApprovals: reader.pendingApprovals, conditionalRules: reader.conditionalRules };
}
