import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import type { VaultScope } from '../../../common/domain/vault.js';

/** Where a vault file belongs (DESIGN.md "Data on disk"). */
export interface VaultLocation {
  scope: VaultScope;
  /** The `projects/<slug>` folder name; null for the user's `<root>/CLAUDE.md`. */
  projectSlug: string | null;
  /** The session a transcript or its notes belong to. */
  sessionId?: string;
}

/** The app-state folder; never watched, never listed, never indexed. */
export const STATE_DIR = '.strata';

const TEMP_FILE = /^\..*\.tmp$/;
const SKIPPED_DIRS = new Set([STATE_DIR, 'node_modules', '.git']);

/** Turns an OS path relative to the root into the vault's `/`-separated form. */
export const toVaultPath = (rel: string): string => rel.split(path.sep).join('/');

/**
 * Classifies a vault-relative path (with `/`) by the DESIGN.md layout; null for anything that is not a
 * vault file (settings, other folders, stray files).
 */
export function classifyVaultPath(rel: string): VaultLocation | null {
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

/** True for a memory file (auto or team), the files the history engine snapshots (issue 4 item 4). */
export const isMemoryScope = (scope: VaultScope): boolean => scope === 'project-memory' || scope === 'team-memory';

/** The memory folder of a project, relative to the root: `projects/<slug>/memory[/team]`. */
export const memoryDir = (projectSlug: string, team: boolean): string =>
  team ? `projects/${projectSlug}/memory/team` : `projects/${projectSlug}/memory`;

/**
 * The watcher's and the walker's filter (STYLE.md: an `ignored` function, no globs): app state, the
 * temp files of atomic writes, `node_modules` and `.git` anywhere below the root.
 */
export function isIgnoredRelative(rel: string): boolean {
  if (rel === '' || rel === '.') return false;
  const parts = rel.split(/[\\/]/);
  if (parts.some((p) => SKIPPED_DIRS.has(p))) return true;
  return TEMP_FILE.test(parts.at(-1)!);
}

/**
 * Resolves a vault path to an absolute one, refusing anything that leaves the root (the contract
 * checks `..` too; main re-checks, DESIGN.md "Validate at the trust boundary").
 */
export function resolveVaultPath(root: string, rel: string): string {
  if (rel.includes('\0') || path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) {
    throw new AppFailure('invalid_request', `Not a path inside the vault: ${rel}`);
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
