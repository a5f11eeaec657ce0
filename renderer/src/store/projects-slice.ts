import type { StateCreator } from 'zustand';
import type { Project } from '../../../common/domain/app';

export interface ProjectsSlice {
  projects: Project[];
  /** The open project's real path. */
  activeProject: string | null;
  setProjects(projects: Project[]): void;
  setActiveProject(path: string | null): void;
}

export const createProjectsSlice: StateCreator<ProjectsSlice> = (set, get) => ({
  projects: [],
  activeProject: null,
  setProjects: (projects) => {
    const active = get().activeProject;
    set({ projects, activeProject: active && projects.some((p) => p.path === active) ? active : null });
  },
  setActiveProject: (activeProject) => set({ activeProject }),
});
