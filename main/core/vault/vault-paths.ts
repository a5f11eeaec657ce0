import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import type { VaultScope } from '../../../common/domain/vault.js';

/** Where a vault file belongs (docs/architecture.md#data-on-disk). */
export interface VaultLocation {
  scope: VaultScope;
  /**
   * The `projects/<slug>` folder name (for a project's own instructions, `@projects/<slug>`: the slug of
   * the opened folder); null for the user's `<root>/CLAUDE.md`.
   */
  projectSlug: string | null;
  /** The session a transcript or its notes belong to. */
  sessionId?: string;
}

/** The app-state folder; never watched, never listed, never indexed. */
export const STATE_DIR = '.strata';

/**
 * The virtual folder of opened projects' own instruction files: `@projects/<slug>/CLAUDE.md` is
 * `<project>/CLAUDE.md`. No vault folder has this name (a real one is ignored), so it cannot clash.
 */
export const PROJECTS_PREFIX = '@projects';

const TEMP_FILE = /^\..*\.tmp$/;
const SKIPPED_DIRS = new Set([STATE_DIR, 'node_modules', '.git']);
const RULE_FILE = /^\.claude\/rules\/[^/]+\.md$/;

/**
 * The instruction files of a project folder the agent reads (context/claude-md-loader.ts, docs/memory.md#instructions):
 * `CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/*.md` and `CLAUDE.local.md`, relative with `/`.
 * Nothing else in a project folder is a vault file.
 */
export const isProjectInstructionFile = (inner: string): boolean =>
  inner === 'CLAUDE.md' || inner === '.claude/CLAUDE.md' || inner === 'CLAUDE.local.md' || RULE_FILE.test(inner);

/** `@projects/<slug>/<inner>` split into the project's slug and its project-relative path; null otherwise. */
export function projectInstructionPath(rel: string): { projectSlug: string; inner: string } | null {
  const parts = rel.split('/');
  if (parts[0] !== PROJECTS_PREFIX || parts.length < 3 || !parts[1]) return null;
  const inner = parts.slice(2).join('/');
  return isProjectInstructionFile(inner) ? { projectSlug: parts[1], inner } : null;
}

/** Opened projects whose instruction files the vault shows: slug → the folder's real path. */
export type ProjectDirs = ReadonlyMap<string, string>;

const NO_PROJECTS: ProjectDirs = new Map();

/** Where a vault path is on disk, and the folder it must stay inside (the root, or its project). */
export interface VaultPlace {
  abs: string;
  base: string;
  /** A project file: its real path is checked against the project folder even when it is no link. */
  inProject: boolean;
}

/** The place of a classified vault path; null for a project that is not open. No checks on disk. */
export function placeOf(root: string, rel: string, projects: ProjectDirs = NO_PROJECTS): VaultPlace | null {
  const instruction = projectInstructionPath(rel);
  if (rel.startsWith(`${PROJECTS_PREFIX}/`)) {
    const dir = instruction && projects.get(instruction.projectSlug);
    return dir ? { abs: path.join(dir, ...instruction.inner.split('/')), base: dir, inProject: true } : null;
  }
  return { abs: path.join(root, ...rel.split('/')), base: root, inProject: false };
}

export const isInside = (base: string, p: string): boolean => p === base || p.startsWith(base + path.sep);

/** Turns an OS path relative to the root into the vault's `/`-separated form. */
export const toVaultPath = (rel: string): string => rel.split(path.sep).join('/');

/**
 * Classifies a vault-relative path (with `/`) by the docs/architecture.md layout; null for anything that is not a
 * vault file (settings, other folders, stray files).
 */
export function classifyVaultPath(rel: string): VaultLocation | null {
  const instruction = projectInstructionPath(rel);
  if (instruction) return { scope: 'instructions', projectSlug: instruction.projectSlug };
  const parts = rel.split('/');
  if (parts.length === 1) return parts[0] === 'CLAUDE.md' ? { scope: 'instructions', projectSlug: null } : null;
  if (parts[0] !== 'projects' || parts.length < 3) return null;
  const projectSlug = parts[1]!;
  const rest = parts.slice(2);
  if (rest.length === 1 && rest[0]!.endsWith('.jsonl')) {
    return { scope: 'transcript', projectSlug, sessionId: rest[0]!.slice(0, -'.jsonl'.length) };
  }
  if (rest.length === 3 && rest[1] === 'session-memory' && rest[2] === 'summary.md' && rest[0] !== 'memory') {
    return { scope: 'session-notes', projectSlug, sessionId: rest[0]! };
  }
  if (rest[0] === 'memory' && rest.at(-1)!.endsWith('.md')) {
    if (rest[1] === 'team' && rest.length >= 3) return { scope: 'team-memory', projectSlug };
    if (rest.length === 2) return { scope: 'project-memory', projectSlug };
  }
  return null;
}

/** True for a memory file (auto or team). */
export const isMemoryScope = (scope: VaultScope): boolean => scope === 'project-memory' || scope === 'team-memory';

/** A memory itself (it needs frontmatter: name, description, type), not its folder's MEMORY.md index. */
export const isMemoryFile = (rel: string, scope: VaultScope): boolean => isMemoryScope(scope) && !rel.endsWith('/MEMORY.md');

/** The files the history engine snapshots before a change (docs/memory.md#vault-upkeep): memories and instructions. */
export const hasHistory = (scope: VaultScope): boolean => isMemoryScope(scope) || scope === 'instructions';

/** The memory folder of a project, relative to the root: `projects/<slug>/memory[/team]`. */
export const memoryDir = (projectSlug: string, team: boolean): string =>
  team ? `projects/${projectSlug}/memory/team` : `projects/${projectSlug}/memory`;

/**
 * The watcher's and the walker's filter (STYLE.md: an `ignored` function, no globs): app state, the
 * temp files of atomic writes, `node_modules` and `.git` anywhere below the root, and a real
 * `@projects` folder at the top (that name is the projects' virtual folder).
 */
export function isIgnoredRelative(rel: string): boolean {
  if (rel === '' || rel === '.') return false;
  const parts = rel.split(/[\\/]/);
  if (parts[0] === PROJECTS_PREFIX || parts.some((p) => SKIPPED_DIRS.has(p))) return true;
  return TEMP_FILE.test(parts.at(-1)!);
}

/**
 * The project watcher's filter: everything but the project folder itself, `.claude`, `.claude/rules`
 * and the instruction files in them (the watcher also stops at depth 2).
 */
export function isIgnoredInProject(rel: string): boolean {
  const p = rel.split(/[\\/]/).join('/');
  if (p === '' || p === '.' || p === '.claude' || p === '.claude/rules') return false;
  return !isProjectInstructionFile(p) || TEMP_FILE.test(p.split('/').at(-1)!);
}

/**
 * Resolves a vault path to an absolute one, refusing anything that leaves the root (the contract
 * checks `..` too; main re-checks, docs/architecture.md). A project's
 * instruction file resolves into its project folder, and only when its real path (through any link,
 * of the file or of `.claude`) stays inside that folder: nothing else there is reachable.
 */
export function resolveVaultPath(root: string, rel: string, projects: ProjectDirs = NO_PROJECTS): string {
  if (rel.includes('\0') || path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
    throw new AppFailure('invalid_request', `Not a path inside the vault: ${rel}`);
  }
  if (rel.startsWith(`${PROJECTS_PREFIX}/`)) {
    const instruction = projectInstructionPath(rel);
    if (!instruction) throw new AppFailure('invalid_request', `Only a project's CLAUDE.md files are vault files: ${rel}`);
    const place = placeOf(root, rel, projects);
    if (!place) throw new AppFailure('not_found', `${rel}: that project is not open`);
    const real = realOfNearest(place.abs);
    if (!real || !isInside(place.base, real)) {
      throw new AppFailure('permission_denied', `${rel} leads outside its project folder: not read or written through the vault`);
    }
    return place.abs;
  }
  const abs = path.resolve(root, rel);
  if (abs !== root && !abs.startsWith(root + path.sep)) {
    throw new AppFailure('invalid_request', `Not a path inside the vault: ${rel}`);
  }
  if (isIgnoredRelative(toVaultPath(path.relative(root, abs)))) {
    throw new AppFailure('invalid_request', `Strata's own state is not a vault file: ${rel}`);
  }
  return abs;
}

/**
 * The real path of `abs`, or of its nearest existing folder joined with the rest (a file about to be
 * created); null when a link on the way dangles or loops (not followed, so never trusted).
 */
function realOfNearest(abs: string): string | null {
  for (let p = abs; ; p = path.dirname(p)) {
    try {
      return path.join(realpathSync(p), path.relative(p, abs));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || isLink(p) || path.dirname(p) === p) return null;
    }
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The memory folder (auto or team) a memory file lives in. */
export function memoryDirOf(rel: string): string {
  const parts = rel.split('/');
  return parts[3] === 'team' && parts.length > 4 ? parts.slice(0, 4).join('/') : parts.slice(0, 3).join('/');
}
