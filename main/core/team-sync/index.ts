/**
 * Team memory sync (docs/memory.md#team-sync; docs/memory.md#team-memory): the engine, its scheduler, sign-in, repository
 * detection, and the mapping onto the renderer's `TeamStatus`.
 */
export { TeamSyncEngine } from './team-sync-engine.js';
export { openTeamSync, type OpenTeamSyncInput, type OpenedTeamSync } from './open-team-sync.js';
export { SyncScheduler, realTimers, type SyncSchedulerOptions, type Timers } from './sync-scheduler.js';
export { TeamAuth, type TeamAuthOptions, type AuthServerMetadata } from './oauth-client.js';
export { detectTeamRepo, repoFromRemoteUrl, type RepoDetection } from './repo-detect.js';
export { TeamApi, type TeamApiOptions } from './team-api.js';
export { type ConflictResolution, type ConflictTexts, type DeletedFile } from './conflict-desk.js';
export { faultSeamFrom, faultPoints, InjectedCrash, type FaultPoint, type FaultSeam } from './fault-seam.js';
export { teamSyncStateDir } from './team-sync-paths.js';
export type { InvalidName } from './local-tree.js';
export { toConflictView, toTeamStatus, type TeamStatusContext } from './team-status.js';
export type {
  BlockedKey,
  FileSyncState,
  SecretFinding,
  SecretScan,
  SyncError,
  SyncErrorCode,
  SyncReport,
  TeamMemoryPort,
  TeamSyncEngineOptions,
  TeamSyncStatus,
} from './sync-types.js';
