import { useStore } from '../store';
import type { View } from '../store/app-slice';
import { loadSessions, refreshOpenSession } from './chat-actions';
import { loadTeamStatus } from './team-actions';

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

/**
 * After the first load: the project, the conversation (when it still exists) and the screen the user
 * left. All three are set at once, before anything loads; what loads afterwards only fills the
 * conversation in. A screen or a conversation the user picks while main answers (a slow disk, a busy
 * main) is their newer choice: nothing that finishes loading later takes them back.
 */
export async function restorePlace(): Promise<void> {
  const place = readPlace();
  const s = useStore.getState();
  if (!place?.project || s.activeProject || !s.projects.some((p) => p.path === place.project)) return;
  s.setActiveProject(place.project);
  s.setActiveSession(place.sessionId);
  // Still the first screen: a click made during the first load already chose another one.
  if (s.view === 'chat') s.setScreen(place.view);
  await Promise.all([loadSessions(place.project), loadTeamStatus(place.project)]);
  const now = useStore.getState();
  if (now.activeProject !== place.project || now.activeSessionId !== place.sessionId || !place.sessionId) return;
  if (now.sessions[place.project]?.some((x) => x.sessionId === place.sessionId)) await refreshOpenSession();
  else now.setActiveSession(null);
}
