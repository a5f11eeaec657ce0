/** Team memory as the renderer sees it: sign-in, sync state, conflicts, blocked files (docs/memory.md#team-memory). */

export type SyncPhase = 'synced' | 'syncing' | 'offline' | 'error' | 'disabled';

export interface BlockedFile {
  /** Key relative to `memory/team/`. */
  key: string;
  /** Vault-relative path of the file. */
  path: string;
  /** The first finding; `findings` holds every rule and line. */
  rule: string;
  line: number;
  /** `column`: where the value starts on its line (absent from older senders). */
  findings: { rule: string; line: number; column?: number }[];
}

/** A local team file whose name the server refuses (kept here, never uploaded). */
export interface InvalidTeamName {
  key: string;
  path: string;
  reason: string;
}

/** A team file whose own pull, write or push failed while the others synced; retried every sync. */
export interface FailedTeamFile {
  key: string;
  path: string;
  step: 'read' | 'pull' | 'push';
  reason: string;
  /** What the user can do about it. */
  advice: string;
}

export interface TeamStatus {
  project: string;
  /** `owner/name`, or null with `repoProblem` saying how to set it. */
  repo: string | null;
  repoProblem: string | null;
  serverUrl: string | null;
  signedIn: boolean;
  account: string | null;
  phase: SyncPhase;
  /** Progress while syncing: files done of total. */
  progress: { done: number; total: number } | null;
  pending: number;
  conflicts: string[];
  blocked: BlockedFile[];
  tooLarge: string[];
  invalidNames: InvalidTeamName[];
  /** Absent from older senders: read as none. */
  failed?: FailedTeamFile[];
  /** Keys deleted here that the mass-delete guard keeps on the server until the user confirms. */
  heldDeletions?: string[];
  lastSyncAt: string | null;
  /** When the next sync starts on its own (ISO): shown beside "Offline" so the user knows when it tries again. Absent or null: none due. */
  nextSyncAt?: string | null;
  error: string | null;
  /** While a sign-in waits for the browser: the server's authorization page (http/https), for the renderer to open. */
  signInUrl?: string | null;
}

/** A team memory deleted here or by a teammate, restorable while its tombstone is kept (docs/memory.md#team-memory: 30 days). */
export interface DeletedTeamFile {
  key: string;
  /** Vault-relative path it had. */
  path: string;
  deletedAt: string;
  by: 'local' | 'remote';
}

export interface ConflictView {
  key: string;
  /** Vault-relative path of the local file. */
  path: string;
  base: string | null;
  mine: string | null;
  theirs: string | null;
  /** When this device received the server's version; the server records no author or time per entry. */
  receivedAt: string;
  /** The signed-in account: the author of "mine", and the name "keep both" gives the copy. */
  you: string | null;
  /** Who made the other side's change and when (ISO), as the team server recorded it; absent or null when unknown. */
  theirsBy?: string | null;
  theirsAt?: string | null;
}

export type ConflictChoice = 'mine' | 'theirs' | 'both' | 'merged';
