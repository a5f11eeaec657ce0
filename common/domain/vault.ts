/** What the renderer sees of the vault: files, their memory metadata, history and health. */

export type VaultScope = 'instructions' | 'session-notes' | 'project-memory' | 'team-memory' | 'transcript';

export type MemoryType = 'user' | 'feedback' | 'project' | 'reference';

export interface VaultFileMeta {
  /** Path relative to the vault root, with `/`. */
  path: string;
  scope: VaultScope;
  /** The project's slug folder under `projects/`, null for the user's CLAUDE.md. */
  projectSlug: string | null;
  /** Display title: frontmatter `name`, else the file name. */
  title: string;
  description: string | null;
  /** A known type, `untyped` for an unknown one, null when the file has no type. */
  type: MemoryType | 'untyped' | null;
  size: number;
  mtime: string;
  /** Malformed frontmatter, unreadable file, broken symlink… listed, never hidden. */
  error: string | null;
  binary: boolean;
  tooLarge: boolean;
  /** Team memory sync state, when the file is team memory. */
  syncState?: 'synced' | 'pending' | 'conflict' | 'blocked' | 'too-large' | 'invalid-name' | 'failed';
}

export interface Frontmatter {
  name: string;
  description: string;
  type: string;
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

export interface HealthReport {
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
