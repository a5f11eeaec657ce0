import type { StateCreator } from 'zustand';
import type { Project } from '../../../common/domain/app';

export interface ProjectsSlice {
  projects: Project[];
  /**
   * Whether main has answered with the list yet. Until it has, the app does not know whether there are
   * projects, so it shows a loading state — never the first-run welcome (docs/architecture.md#start).
   */
  projectsKnown: boolean;
  /** The open project's real path. */
  activeProject: string | null;
  setProjects(projects: Project[]): void;
  setActiveProject(path: string | null): void;
}

export const createProjectsSlice: StateCreator<ProjectsSlice> = (set, get) => ({
  projects: [],
  projectsKnown: false,
  activeProject: null,
  setProjects: (projects) => {
    const active = get().activeProject;
    set({ projects, projectsKnown: true, activeProject: active && projects.some((p) => p.path === active) ? active : null });
  },
  setActiveProject: (activeProject) => set({ activeProject }),
});
