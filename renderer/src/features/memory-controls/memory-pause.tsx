import { useMemo } from 'react';
import { projectSettingsSchema, type ProjectSettings } from '../../../../common/domain/settings';
import { saveSettings } from '../../bridge/actions';
import { useStore } from '../../store';
import './memory-controls.css';

/** The project's switches as saved (defaults when it has none yet); null before settings load. */
function useProjectSwitches(project: string): ProjectSettings | null {
  // Select the stored objects themselves: a selector that builds a new object each call re-renders forever.
  const loaded = useStore((s) => s.settings !== null);
  const saved = useStore((s) => s.settings?.projects[project]);
  return useMemo(() => (loaded ? (saved ?? projectSettingsSchema.parse({})) : null), [loaded, saved]);
}

/** Pauses or resumes memory for one project (docs/memory.md#pause-and-incognito), keeping its other switches. */
export async function setMemoryPaused(project: string, paused: boolean): Promise<void> {
  const settings = useStore.getState().settings;
  if (!settings) return;
  const current = settings.projects[project] ?? projectSettingsSchema.parse({});
  await saveSettings({ projects: { ...settings.projects, [project]: { ...current, memoryPaused: paused } } });
}

/** Flips the project's pause (the command palette's entry). */
export async function toggleMemoryPaused(project: string): Promise<void> {
  const settings = useStore.getState().settings;
  await setMemoryPaused(project, !(settings?.projects[project]?.memoryPaused ?? false));
}

/**
 * The chat header's quick control: "Memory on" or "Memory paused", pressed while paused. The same
 * switch is in Settings › This project.
 */
export function MemoryPauseToggle({ project }: { project: string }) {
  const switches = useProjectSwitches(project);
  if (!switches || !switches.autoMemory) return null;
  const paused = switches.memoryPaused;
  return (
    <button
      type="button"
      className={`button ghost memory-pause${paused ? ' paused' : ''}`}
      aria-pressed={paused}
      title={paused ? 'Nothing new is saved in this project. Click to resume memory.' : 'Click to stop saving new memories in this project.'}
      onClick={() => void setMemoryPaused(project, !paused)}
    >
      {paused ? 'Memory paused' : 'Pause memory'}
    </button>
  );
}
