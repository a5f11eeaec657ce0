import type { VaultFileMeta } from '../../../../common/domain/vault';
import { useStore, useStoreShallow } from '../../store';

/**
 * The team memory a file is, as the conflict inbox names it: its project (the active one first, as
 * worktrees share a memory folder) and its key under `memory/team/`. Null for any other file.
 */
function teamKeyOf(meta: VaultFileMeta, projects: { path: string; memorySlug: string }[], active: string | null) {
  if (meta.scope !== 'team-memory' || !meta.projectSlug) return null;
  const prefix = `projects/${meta.projectSlug}/memory/team/`;
  if (!meta.path.startsWith(prefix)) return null;
  const owners = projects.filter((p) => p.memorySlug === meta.projectSlug);
  const project = owners.find((p) => p.path === active) ?? owners[0];
  return project ? { project: project.path, key: meta.path.slice(prefix.length) } : null;
}

/**
 * A team memory in conflict says so where it is read, with the way to the resolver: the text shown is
 * this computer's version, and a teammate's waits beside it (docs/memory.md#team-memory).
 */
export function ConflictBanner({ meta }: { meta: VaultFileMeta }) {
  const { projects, active, team } = useStoreShallow((s) => ({ projects: s.projects, active: s.activeProject, team: s.team }));
  const target = teamKeyOf(meta, projects, active);
  if (!target) return null;
  // The project's live status when it is known (it changes before the file list is read again), else the file's badge.
  const status = team[target.project];
  if (!(status ? status.conflicts.includes(target.key) : meta.syncState === 'conflict')) return null;
  const resolve = () => {
    const s = useStore.getState();
    if (s.activeProject !== target.project) s.setActiveProject(target.project);
    s.setPanel('conflicts');
    s.openConflict(target);
  };
  return (
    <p className="banner warning" role="status">
      <span>
        <strong>This memory has a conflict.</strong> A teammate changed it too; what you see here is your version, and theirs is kept
        until you choose.
      </span>
      <button type="button" className="button secondary" onClick={resolve}>
        Resolve
      </button>
    </p>
  );
}
