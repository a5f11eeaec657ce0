import { useStore } from '../../store';

/** The tidy-up works on a project's own memories only: a full team index is shortened by hand. */
export const TEAM_ROOM = 'The tidy-up works on your own memories, not the team’s: shorten the team MEMORY.md to make room.';

/**
 * What makes room in a full index (docs/memory.md#memory-index): the Inbox's tidy-up for a project's own
 * memory (when its project is open in Strata), the team MEMORY.md opened in the editor (`open`) for the team's.
 */
export function makeRoom(projectSlug: string | null, team: boolean, open: (path: string) => void): { label: string; run: () => void } | null {
  if (team && projectSlug) return { label: 'Open the team MEMORY.md', run: () => open(`projects/${projectSlug}/memory/team/MEMORY.md`) };
  const tidy = team ? null : tidyTarget(projectSlug);
  return tidy ? { label: 'Tidy memory in the Inbox', run: tidy } : null;
}

/** Opens the Inbox's tidy-up for the project whose memory folder is `projectSlug` (when it is open in Strata). */
export function tidyTarget(projectSlug: string | null): (() => void) | null {
  const s = useStore.getState();
  const project = projectSlug ? s.projects.find((p) => p.memorySlug === projectSlug) : undefined;
  if (!project) return null;
  return () => {
    const st = useStore.getState();
    st.setActiveProject(project.path);
    st.setPanel('review');
  };
}
