import { useStore } from '../store';
import type { View } from '../store/app-slice';
import { selectProject } from './actions';
import { openSession } from './chat-actions';

/** Where the user was (project, conversation, screen), kept by the window so a reload returns there. */
const KEY = 'strata.place';
const VIEWS: readonly View[] = ['chat', 'vault', 'settings'];

interface Place {
  project: string | null;
  sessionId: string | null;
  view: View;
}

function readPlace(): Place | null {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<Place> | null;
    if (!raw || typeof raw.project !== 'string') return null;
    return {
      project: raw.project,
      sessionId: typeof raw.sessionId === 'string' ? raw.sessionId : null,
      view: VIEWS.includes(raw.view as View) ? (raw.view as View) : 'chat',
    };
  } catch {
    // Storage refused (a locked-down profile) or a value from elsewhere: start from the welcome screen.
    return null;
  }
}

/** Writes the place on every change of project, conversation or screen. */
export function rememberPlace(): () => void {
  return useStore.subscribe((s, prev) => {
    if (s.activeProject === prev.activeProject && s.activeSessionId === prev.activeSessionId && s.view === prev.view) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ project: s.activeProject, sessionId: s.activeSessionId, view: s.view }));
    } catch {
      // Not kept: a reload then starts from the welcome screen, nothing else is lost.
    }
  });
}

/** After the first load: the project, the conversation (when it still exists) and the screen the user left. */
export async function restorePlace(): Promise<void> {
  const place = readPlace();
  const s = useStore.getState();
  if (!place?.project || s.activeProject || !s.projects.some((p) => p.path === place.project)) return;
  await selectProject(place.project, place.sessionId);
  const known = useStore.getState().sessions[place.project]?.some((x) => x.sessionId === place.sessionId);
  if (place.sessionId && known) await openSession(place.project, place.sessionId);
  else if (useStore.getState().activeSessionId === place.sessionId) useStore.getState().setActiveSession(null);
  useStore.getState().setScreen(place.view);
}
