import type { MemoryConfig } from '../../../common/config.js';
import type { Clock, Logger } from '../ports.js';
import type { GetResult, PutResult } from './team-api.js';
import type { FaultSeam } from './fault-seam.js';
import type { InvalidName } from './local-tree.js';
import type { RequestScope } from './wait-budget.js';

/** What the scanner reports (main/core/secrets `scanText`): a rule and a line, never the value. */
export type SecretScan = (text: string) => { rule: string; line: number; column?: number }[];

/** The protocol calls the engine makes; `TeamApi` implements them, tests may wrap it to drop answers. */
export interface TeamMemoryPort {
  /**
   * The scope's `signal` ends the request at once (the engine's `close`; the port answers `cancelled`);
   * its `budget` bounds the wait for an answer (the port answers `network` when it is spent).
   */
  get(ifNoneMatch: string | null, scope?: RequestScope): Promise<GetResult>;
  hashes(scope?: RequestScope): Promise<GetResult>;
  put(entries: Record<string, string | null>, ifMatch: string | null, scope?: RequestScope): Promise<PutResult>;
  /** Who last changed a key and when (for the conflict resolver); optional, best effort. */
  entryInfo?(key: string, scope?: RequestScope): Promise<{ updatedBy: string | null; updatedAt: string | null } | null>;
}

export interface TeamSyncEngineOptions {
  repo: string;
  /** `<vault>/projects/<slug>/memory/team`. */
  teamDir: string;
  /** `<vault>/.strata/team-sync/<owner>/<name>` (see `teamSyncStateDir`). */
  stateDir: string;
  api: TeamMemoryPort;
  scan: SecretScan;
  config: MemoryConfig['teamSync'];
  /** The caps the agent reads the team MEMORY.md to (`autoMemory.indexMaxLines` / `indexMaxChars`); the defaults when absent. */
  indexCaps?: Pick<MemoryConfig['autoMemory'], 'indexMaxLines' | 'indexMaxChars'>;
  clock: Clock;
  logger: Logger;
  /** Injectable so tests never wait for real backoff. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  fault?: FaultSeam;
  onStatus?: (status: TeamSyncStatus) => void;
}

/**
 * Per-file state shown as a badge (docs/memory.md#team-memory **Beyond**); `invalid-name`: the server refuses the file's
 * name; `failed`: this file's pull, write or push failed on its own (the rest synced).
 */
export type FileSyncState = 'synced' | 'pending' | 'conflict' | 'blocked' | 'too-large' | 'invalid-name' | 'failed';

/** One file whose step failed while every other file synced: what happened and what the user can do. */
export interface FileFailure {
  key: string;
  step: 'read' | 'pull' | 'push';
  /** What went wrong, in a sentence ("its name is longer than this disk allows"). */
  reason: string;
  /** What to do about it ("ask the teammate who added it to rename it"). */
  advice: string;
}

export interface SecretFinding {
  rule: string;
  line: number;
  /** Where the value starts on its line, so "Not a secret" marks that one value (absent in older state). */
  column?: number;
}

/**
 * A file held back by the scanner. `rule`/`line` are its first finding (what the renderer and older
 * readers show); `findings` lists every rule, line and column, so the user can clear them all in one pass.
 */
export interface BlockedKey extends SecretFinding {
  key: string;
  findings: SecretFinding[];
}

export type SyncErrorCode = 'offline' | 'auth' | 'forbidden' | 'contention' | 'too_many_entries' | 'server' | 'local_io' | 'cancelled';

export interface SyncError {
  code: SyncErrorCode;
  message: string;
}

/** One sync run (what `strata sync --json` prints, keyed). */
export interface SyncReport {
  /** Keys written or deleted locally by the pull. */
  pulled: string[];
  /** Keys uploaded (or deleted) on the server. */
  pushed: string[];
  conflicts: string[];
  /** Local deletions held back by the mass-delete guard until the user confirms. */
  heldDeletions: string[];
  /** Keys changed on both sides whose edits merged without overlapping (the merge is pushed). */
  merged: string[];
  blocked: BlockedKey[];
  tooLarge: string[];
  /** Local files whose names the server refuses: never uploaded, never failing a batch, left in place. */
  invalidNames: InvalidName[];
  /** Files whose own step failed; the run went on with the others. */
  failed: FileFailure[];
  /** Keys changed locally and not on the server yet (conflicts, blocked and too-large excluded). */
  pending: string[];
  warnings: string[];
  error: SyncError | null;
}

/** The sync indicator (docs/memory.md#team-sync): maps onto `TeamStatus` of common/domain/team.ts. */
export interface TeamSyncStatus {
  phase: 'synced' | 'syncing' | 'offline' | 'error';
  progress: { done: number; total: number } | null;
  pending: number;
  conflicts: string[];
  blocked: BlockedKey[];
  tooLarge: string[];
  invalidNames: InvalidName[];
  failed: FileFailure[];
  /** Local deletions held back by the mass-delete guard (absent: none). */
  heldDeletions?: string[];
  lastSyncAt: string | null;
  error: SyncError | null;
}

export const emptyReport = (): SyncReport => ({
  pulled: [],
  pushed: [],
  conflicts: [],
  merged: [],
  heldDeletions: [],
  blocked: [],
  tooLarge: [],
  invalidNames: [],
  failed: [],
  pending: [],
  warnings: [],
  error: null,
});
