/** What the renderer sees of the vault: files, their memory metadata, history and health. */

export type VaultScope = 'instructions' | 'session-notes' | 'project-memory' | 'team-memory' | 'transcript';

export type { MemoryType } from '../memory-file/memory-types.js';
import type { MemoryShape, MemoryType } from '../memory-file/memory-types.js';

export interface VaultFileMeta {
  /** Path relative to the vault root, with `/`. */
  path: string;
  scope: VaultScope;
  /** The project's slug folder under `projects/`, null for the user's CLAUDE.md. */
  projectSlug: string | null;
  /**
   * Display title: a memory's frontmatter `name`, a conversation's (notes and transcript) title — the
   * notes' own Session Title, else its first question — else the file name.
   */
  title: string;
  /** The project's name (its folder's name), when the file belongs to one: what to show, not the slug. */
  projectName?: string;
  description: string | null;
  /** A known type, `untyped` for an unknown one, null when the file has no type. */
  type: MemoryType | 'untyped' | null;
  size: number;
  mtime: string;
  /** Malformed frontmatter, unreadable file, broken symlink… listed, never hidden. */
  error: string | null;
  binary: boolean;
  tooLarge: boolean;
  /** A memory's provenance and dates (docs/memory.md#provenance-and-use, #freshness), when it has them. */
  memory?: MemoryMetaExtras;
  /** Team memory sync state, when the file is team memory. */
  syncState?: 'synced' | 'pending' | 'conflict' | 'blocked' | 'too-large' | 'invalid-name' | 'failed';
}

export interface MemoryMetaExtras {
  /** The conversation that wrote it (`originSessionId`). */
  originSessionId?: string;
  /** "ChatGPT", "Claude", a notes folder…: the source its "Imported from … on …" line names. */
  importedFrom?: string;
  /** `YYYY-MM-DD`. */
  validUntil?: string;
  reviewOn?: string;
}

export interface Frontmatter {
  name: string;
  description: string;
  /** As written: top-level `type`, else the newest Claude Code's `metadata.type`. */
  type: string;
  /** Which Claude Code shape the file is written in (absent on what the renderer builds). */
  shape?: MemoryShape;
  /** The conversation that wrote the memory, when recorded. */
  originSessionId?: string | null;
}

export interface VaultFile {
  meta: VaultFileMeta;
  text: string;
  /** Parsed frontmatter, null when absent; `frontmatterError` when present but malformed. */
  frontmatter: Frontmatter | null;
  frontmatterError: string | null;
  body: string;
  /** sha256 of the content as read: sent back with a save to detect a change made meanwhile. */
  hash: string;
}

export interface IndexLine {
  line: number;
  title: string;
  target: string;
  hook: string;
  broken: boolean;
}

export interface MemoryIndexView {
  projectSlug: string;
  lines: IndexLine[];
  /** Memory files no index line points at. */
  missing: string[];
  headroom: { lines: number; maxLines: number; chars: number; maxChars: number; tokens: number };
}

export interface SearchHit {
  path: string;
  scope: VaultScope;
  type: string | null;
  title: string;
  line: number;
  snippet: string;
  /** [start, end) ranges of the snippet to highlight. */
  ranges: [number, number][];
  score: number;
}

/** A memory's `[[name]]` links, resolved within its project, and the memories linking to it. */
export interface MemoryLinks {
  /** In the order written; `path` null when no memory has that name (yet). */
  links: { name: string; path: string | null; title: string | null }[];
  backlinks: { path: string; title: string }[];
}

/** Who made a change, as History shows it ("You", "The agent in “Plan the trip”", "Ana (team)"…). */
export interface ChangeAuthor {
  kind: 'you' | 'agent' | 'extractor' | 'teammate' | 'outside' | 'consolidation' | 'restore';
  /** The conversation's title for the agent, the teammate's name for a pull. */
  label?: string;
  /** The conversation that made the change, to open it from History. */
  sessionId?: string;
}

export interface HistoryVersion {
  hash: string;
  savedAt: string;
  size: number;
  reason: string;
  /** Absent on versions saved before authors were recorded: show `reason` then. */
  author?: ChangeAuthor;
}

/** What Health can fix in one click, one file at a time or all of a kind at once (`vault:health-fix`). */
export const healthFixKinds = ['frontmatter', 'broken-pointer', 'missing-from-index', 'expired', 'review-due', 'stale'] as const;
export type HealthFixKind = (typeof healthFixKinds)[number];
/**
 * Every kind of problem Health lists, in the order it lists them. An index over its cap comes first and
 * has no one-click fix: its next step is a tidy-up (docs/memory.md#vault-upkeep).
 */
export const healthProblemKinds = ['index-over-cap', ...healthFixKinds] as const;
export type HealthProblemKind = (typeof healthProblemKinds)[number];

/** One thing that is really wrong, with its fix. */
export interface HealthProblem {
  kind: HealthProblemKind;
  /**
   * The file it is about, unique within its kind: the memory file, or for a broken pointer the path
   * the MEMORY.md line points at (which does not exist). What `vault:health-fix` takes to fix only some.
   */
  path: string;
  projectSlug: string | null;
  team: boolean;
  /** What is wrong, in words for the user (no internal paths). */
  message: string;
  /** The fix's button label: "Remove the line", "Add it to the index", "Repair the frontmatter", "Still true", "Renew for 90 days". */
  fix: string;
  /** Set when the one-click fix cannot help now (a memory missing from an index that is full): the next step is a tidy-up. */
  next?: 'tidy';
}

/**
 * A memory the user wrote (New memory) or brought back (restore, Undo of a delete) whose MEMORY.md line
 * was left out: the index is at a cap the agent reads it to (docs/memory.md#memory-index). The memory is
 * written all the same; `projectSlug` is its memory folder's project, for the tidy-up offer.
 */
export interface IndexLineSkipped {
  limit: 'lines' | 'characters';
  maxLines: number;
  maxChars: number;
  projectSlug: string;
  /** The team's index (`memory/team/MEMORY.md`): the tidy-up does not work on it, so the user shortens it. */
  team: boolean;
}

/** A file the user wrote or restored, with the index line that did not fit, if one did not. */
export type WrittenMemory = VaultFile & { indexSkipped?: IndexLineSkipped };

export interface HealthFixResult {
  fixed: number;
  /** What could not be fixed, and why (a file gone meanwhile, a write refused…). */
  failed: { path: string; reason: string }[];
  /**
   * Memories not added to their index because it would pass the cap the agent reads it to
   * (`autoMemory.indexMaxLines` / `indexMaxChars`), and which of the two stopped it first.
   */
  didNotFit?: { count: number; limit: 'lines' | 'characters'; maxLines: number; maxChars: number };
  /** Takes the whole fix back in one step (`vault:health-undo`); absent when nothing was written. */
  undoToken?: string;
}

export interface HealthUndoResult {
  restored: number;
  /** Files left as they are: changed since the fix, or gone. */
  failed: { path: string; reason: string }[];
}

export interface HealthReport {
  /** Everything fixable that is wrong, grouped by kind in this order, sorted naturally by path within each. */
  problems: HealthProblem[];
  totalTokens: number;
  files: { path: string; tokens: number }[];
  indexes: (MemoryIndexView['headroom'] & { projectSlug: string })[];
  stale: { path: string; days: number }[];
  duplicates: { a: string; b: string; why: 'description' | 'similar-body' }[];
  largeInstructions: { path: string; chars: number }[];
  brokenPointers: { projectSlug: string; target: string }[];
  missingFromIndex: { projectSlug: string; path: string }[];
}

export interface VaultChange {
  kind: 'added' | 'changed' | 'removed' | 'renamed';
  path: string;
  from?: string;
  external: boolean;
}
