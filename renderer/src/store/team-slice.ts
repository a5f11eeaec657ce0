import type { StateCreator } from 'zustand';
import type { TeamStatus } from '../../../common/domain/team';

export interface TeamSlice {
  /** Team sync status per project path. */
  team: Record<string, TeamStatus>;
  /** The conflict open in the resolver: project and key. */
  conflict: { project: string; key: string } | null;
  setTeamStatus(status: TeamStatus): void;
  openConflict(conflict: { project: string; key: string } | null): void;
}

export const createTeamSlice: StateCreator<TeamSlice> = (set) => ({
  team: {},
  conflict: null,
  setTeamStatus: (status) => set((s) => ({ team: { ...s.team, [status.project]: status } })),
  openConflict: (conflict) => set({ conflict }),
});
