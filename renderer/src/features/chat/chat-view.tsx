import { useEffect } from 'react';
import { useStoreShallow, useStore } from '../../store';
import { modLabel } from '../../ui/use-shortcuts';
import { openDefaultSession } from '../../bridge/chat-actions';
import { SessionPane } from './session-pane';

/** Where the key Strata found is held, in words that stay true for each credential driver. */
function keyFoundText(apiKey: string | undefined, driver: string | undefined): string {
  if (apiKey === 'environment') return 'API key found (ANTHROPIC_API_KEY).';
  if (driver === 'keytar') return 'API key found (system keychain).';
  if (driver === 'safe-storage') return 'API key found (saved encrypted).';
  return 'API key found (held until Strata stops).';
}

/** The chat pane. Until a project is open it is the first-run guide: open a folder, add a key. */
export function ChatView() {
  const { activeProject, projects, credentials, activeSessionId, listed } = useStoreShallow((s) => ({
    activeProject: s.activeProject,
    projects: s.projects,
    credentials: s.credentials,
    activeSessionId: s.activeSessionId,
    listed: s.activeProject ? s.sessions[s.activeProject] : undefined,
  }));
  const project = projects.find((p) => p.path === activeProject);
  const needsKey = credentials?.apiKey === 'missing';
  const { setFolderChooserOpen, setScreen } = useStore.getState();

  // An open project always has a conversation to type into: its newest one, once its list is in, else a new one.
  const newest = listed?.[0]?.sessionId;
  const loaded = listed !== undefined;
  useEffect(() => {
    if (!project || activeSessionId || !loaded) return;
    void openDefaultSession(project.path, newest);
  }, [project, activeSessionId, loaded, newest]);

  if (!project) {
    return (
      <section className="empty-state" aria-labelledby="welcome-heading">
        <h1 id="welcome-heading">Welcome to Strata</h1>
        <p className="lead">
          Chat with an agent that works on your folders and remembers what it learns — in plain notes you can
          read and edit.
        </p>
        <ol className="steps">
          <li>
            <strong>Open a project folder.</strong> The agent reads and edits files there, with your consent.
            <div>
              <button type="button" className="button primary" onClick={() => setFolderChooserOpen(true)}>
                Open a folder… <kbd>{modLabel}O</kbd>
              </button>
            </div>
          </li>
          <li>
            <strong>Add your Anthropic API key.</strong> It goes to your system keychain, never into a plain-text file.
            <div>
              {needsKey ? (
                <button type="button" className="button secondary" onClick={() => setScreen('settings')}>
                  Add API key in Settings
                </button>
              ) : (
                <span className="ok-text">{keyFoundText(credentials?.apiKey, credentials?.driver)}</span>
              )}
            </div>
          </li>
        </ol>
      </section>
    );
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
