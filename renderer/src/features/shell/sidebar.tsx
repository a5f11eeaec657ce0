import { useStoreShallow, useStore, type View } from '../../store';
import { modLabel } from '../../ui/use-shortcuts';
import { selectProject } from '../../bridge/actions';
import { SessionList } from '../chat/session-list';
import { LoadingLine } from './loading-line';

const views: { id: View; label: string; shortcut: string }[] = [
  { id: 'chat', label: 'Chat', shortcut: `${modLabel}1` },
  { id: 'vault', label: 'Vault', shortcut: `${modLabel}2` },
  { id: 'settings', label: 'Settings', shortcut: `${modLabel},` },
];

export function Sidebar() {
  const { view, projects, projectsKnown, activeProject } = useStoreShallow((s) => ({
    view: s.view,
    projects: s.projects,
    projectsKnown: s.projectsKnown,
    activeProject: s.activeProject,
  }));
  const { setScreen, setFolderChooserOpen } = useStore.getState();

  return (
    <aside className="sidebar">
      <div className="brand" aria-hidden="true">
        Strata
      </div>
      <nav aria-label="Main">
        <ul className="nav-list">
          {views.map((v) => (
            <li key={v.id}>
              <button
                type="button"
                className="nav-item"
                aria-current={view === v.id ? 'page' : undefined}
                onClick={() => setScreen(v.id)}
                title={`${v.label} (${v.shortcut})`}
              >
                {v.label}
                <kbd>{v.shortcut}</kbd>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <section className="sidebar-section" aria-labelledby="projects-heading">
        <h2 id="projects-heading">Projects</h2>
        {!projectsKnown ? (
          <LoadingLine>Loading projects…</LoadingLine>
        ) : projects.length === 0 ? (
          <p className="muted small">No folders opened yet.</p>
        ) : (
          <ul className="project-list">
            {projects.map((p) => (
              <li key={p.path}>
                <button
                  type="button"
                  className="project-item"
                  aria-current={p.path === activeProject ? 'true' : undefined}
                  title={p.path}
                  onClick={() => void selectProject(p.path)}
                >
                  {p.name}
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="button secondary full" onClick={() => setFolderChooserOpen(true)}>
          Open folder… <kbd>{modLabel}O</kbd>
        </button>
      </section>
      <section className="sidebar-section" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Conversations</h2>
        {activeProject ? <SessionList project={activeProject} /> : <p className="muted small">Open a project to see its conversations.</p>}
      </section>
    </aside>
  );
}
