import type { CredentialStatus, Project } from '../../../../common/domain/app';
import { useStore } from '../../store';
import { modLabel } from '../../ui/use-shortcuts';
import { selectProject } from '../../bridge/actions';
import { LoadingLine } from '../shell/loading-line';
import { keyInUse, keyWillBeKept } from '../settings/key-words';

/**
 * Main has not listed the projects yet (docs/architecture.md#start): the app cannot tell a first run from
 * a vault full of work, so it says it is loading rather than greet the user as new.
 */
export function StartingUp() {
  return (
    <section className="empty-state" aria-label="Loading" aria-busy="true">
      <LoadingLine>Loading your projects…</LoadingLine>
    </section>
  );
}

/** Projects exist but none is open (a new tab, a forgotten place): pick one, most recently opened first. */
export function ChooseProject({ projects }: { projects: readonly Project[] }) {
  const recent = [...projects].sort((a, b) => b.openedAt.localeCompare(a.openedAt)).slice(0, 8);
  return (
    <section className="empty-state" aria-labelledby="choose-heading">
      <h1 id="choose-heading">Choose a project</h1>
      <p className="lead">Pick up a conversation in one of your folders, or open another one.</p>
      <ul className="project-picks">
        {recent.map((p) => (
          <li key={p.path}>
            <button type="button" className="button secondary" title={p.path} aria-label={`Open ${p.name}`} onClick={() => void selectProject(p.path)}>
              {p.name}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="link" onClick={() => useStore.getState().setFolderChooserOpen(true)}>
        Open another folder… <kbd>{modLabel}O</kbd>
      </button>
    </section>
  );
}

/** The first-run guide: open a folder, add a key. Shown only once main said there are no projects. */
export function Welcome({ credentials }: { credentials: CredentialStatus | null }) {
  const { setFolderChooserOpen, setScreen } = useStore.getState();
  // The same words as Settings (key-words.ts): what the key in use is, or what adding one will do here.
  const found = keyInUse(credentials);
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
          {found ? (
            <>
              <strong>API key found.</strong>
              <div className="ok-text">{found}</div>
            </>
          ) : (
            <>
              <strong>Add your Anthropic API key.</strong> {keyWillBeKept(credentials?.driver)}
              <div>
                <button type="button" className="button secondary" onClick={() => setScreen('settings')}>
                  Add API key in Settings
                </button>
              </div>
            </>
          )}
        </li>
      </ol>
    </section>
  );
}
