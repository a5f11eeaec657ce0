import { defaultMemoryConfig, type MemoryConfig } from '../../../common/config.js';
import { AppFailure } from '../../../common/result.js';
import { ProjectPaths } from '../paths/index.js';
import { SecretAllowanceStore } from '../secrets/index.js';
import type { Clock, Logger } from '../ports.js';
import { detectTeamRepo } from './repo-detect.js';
import { TeamApi } from './team-api.js';
import { TeamSyncEngine } from './team-sync-engine.js';
import { migrateLegacyStateDir, teamSyncStateDir } from './team-sync-paths.js';
import type { FaultSeam } from './fault-seam.js';
import type { SecretScan, TeamSyncStatus } from './sync-types.js';

export interface OpenTeamSyncInput {
  vaultRoot: string;
  /** The opened folder; memory is keyed by its git root (docs/memory.md#where-things-live). */
  projectDir: string;
  serverUrl: string;
  /** The `teamRepo` setting (project), used where the git remote gives no repository. */
  teamRepo?: string | null;
  /** `TeamAuth.getAccessToken`, or a fixed token (`STRATA_TEAM_TOKEN`). */
  getToken: () => Promise<string | null>;
  config?: MemoryConfig['teamSync'];
  /** The vault's MEMORY.md caps (`autoMemory`), for a restored team memory's index line. */
  indexCaps?: Pick<MemoryConfig['autoMemory'], 'indexMaxLines' | 'indexMaxChars'>;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  scan?: SecretScan;
  fault?: FaultSeam;
  onStatus?: (status: TeamSyncStatus) => void;
}

export interface OpenedTeamSync {
  engine: TeamSyncEngine;
  repo: string;
  teamDir: string;
  stateDir: string;
}

/**
 * Builds the sync engine of one project: repository from the git remote or the `teamRepo` setting,
 * folders from the vault layout (docs/architecture.md#data-on-disk), the shared secret scanner. The composition
 * root, the CLI and the tests call this. Without a repository it throws `AppFailure('not_found')` whose
 * message says how to set one.
 */
export async function openTeamSync(input: OpenTeamSyncInput): Promise<OpenedTeamSync> {
  const paths = await ProjectPaths.resolve(input.vaultRoot, input.projectDir);
  const detected = await detectTeamRepo(paths.gitRoot ?? paths.projectDir, input.teamRepo);
  if (!detected.ok) throw new AppFailure('not_found', detected.error.message);
  const repo = detected.repo;
  if (await migrateLegacyStateDir(input.vaultRoot, repo)) input.logger.info('team sync: moved the sync state to its owner/name folder', { repo });
  const stateDir = teamSyncStateDir(input.vaultRoot, repo);
  const allowances = SecretAllowanceStore.forVault(input.vaultRoot);
  const engine = new TeamSyncEngine({
    repo,
    teamDir: paths.teamMemoryDir,
    stateDir,
    api: new TeamApi({ serverUrl: input.serverUrl, repo, fetch: input.fetch, getToken: input.getToken }),
    // Findings the user marked "Not a secret" (in this vault) do not hold a file back.
    scan: input.scan ?? ((text) => allowances.scan(text)),
    config: input.config ?? defaultMemoryConfig.teamSync,
    indexCaps: input.indexCaps ?? defaultMemoryConfig.autoMemory,
    clock: input.clock,
    logger: input.logger,
    fault: input.fault,
    onStatus: input.onStatus,
  });
  return { engine, repo, teamDir: paths.teamMemoryDir, stateDir };
}
