import { detectTeamRepo, type RepoDetection } from '../team-sync/repo-detect.js';
import { isValidRepo } from '../team-sync/team-key.js';

/**
 * The team repository of a project in DESIGN.md's order ("`teamRepo` where the git remote gives
 * none"): the git remote (`origin`, else the first) wins; the `teamRepo` setting is used only when
 * the project has no git repository, no remote, or a remote without `owner/name`. Neither → the
 * remote's problem, which says how to set one.
 *
 * The engine's `detectTeamRepo` takes the setting first, so callers resolve here and hand the
 * result to `openTeamSync` as its `teamRepo`.
 */
export async function resolveTeamRepo(repoDir: string, teamRepoSetting: string | null): Promise<RepoDetection> {
  const fromRemote = await detectTeamRepo(repoDir);
  if (fromRemote.ok || !teamRepoSetting) return fromRemote;
  if (isValidRepo(teamRepoSetting)) return { ok: true, repo: teamRepoSetting, source: 'setting' };
  return { ok: false, error: { code: 'no_repo', message: `the teamRepo setting "${teamRepoSetting}" is not owner/name` } };
}
