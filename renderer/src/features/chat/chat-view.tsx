import { useEffect } from 'react';
import { useStoreShallow, useStore } from '../../store';
import { openDefaultSession } from '../../bridge/chat-actions';
import { SessionPane } from './session-pane';
import { ChooseProject, StartingUp, Welcome } from './start-screens';

/**
 * The chat pane. Until a project is open: a loading state while main has not listed the projects yet,
 * a choice among them when there are some, else the first-run guide (start-screens.tsx).
 */
export function ChatView() {
  const { activeProject, projects, projectsKnown, credentials, activeSessionId, listed } = useStoreShallow((s) => ({
    activeProject: s.activeProject,
    projects: s.projects,
    projectsKnown: s.projectsKnown,
    credentials: s.credentials,
    activeSessionId: s.activeSessionId,
    listed: s.activeProject ? s.sessions[s.activeProject] : undefined,
  }));
  const project = projects.find((p) => p.path === activeProject);
  const needsKey = credentials?.apiKey === 'missing';
  const { setScreen } = useStore.getState();

  // An open project always has a conversation to type into: its newest one, once its list is in, else a new one.
  const newest = listed?.[0]?.sessionId;
  const loaded = listed !== undefined;
  useEffect(() => {
    if (!project || activeSessionId || !loaded) return;
    void openDefaultSession(project.path, newest);
  }, [project, activeSessionId, loaded, newest]);

  if (!project) {
    if (!projectsKnown) return <StartingUp />;
    if (projects.length > 0) return <ChooseProject projects={projects} />;
    return <Welcome credentials={credentials} />;
  }

  return (
    <div className="project-pane">
      {needsKey && (
        <div className="notice" role="note">
          Add an Anthropic API key in{' '}
          <button type="button" className="link" onClick={() => setScreen('settings')}>
            Settings
          </button>{' '}
          to start chatting.
        </div>
      )}
      {activeSessionId ? <SessionPane project={project.path} projectName={project.name} sessionId={activeSessionId} /> : <p className="muted">Opening…</p>}
    </div>
  );
}
