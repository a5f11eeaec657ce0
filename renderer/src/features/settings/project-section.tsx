import { useEffect, useState } from 'react';
import { projectSettingsSchema, type ProjectSettings, type Settings } from '../../../../common/domain/settings';
import { useStoreShallow } from '../../store';
import { saveSettings } from '../../bridge/actions';
import { loadTeamStatus, signIn, signOut, syncNow } from '../../bridge/team-actions';

const switches: {
  key: 'autoMemory' | 'memoryPaused' | 'extraction' | 'teamSync' | 'reviewMode' | 'alwaysAllowWrites' | 'consolidation' | 'consolidationAutoApply';
  label: string;
  hint: string;
}[] = [
  { key: 'autoMemory', label: 'Auto memory', hint: 'The agent keeps memories for this project and sees their index.' },
  { key: 'memoryPaused', label: 'Pause memory', hint: 'Nothing new is saved: no memories from the agent or in the background, no tidy-ups. Saved memories are still used.' },
  { key: 'extraction', label: 'Background extraction', hint: 'After each answer, a background pass saves what is worth remembering.' },
  { key: 'reviewMode', label: 'Review before saving', hint: 'Background proposals wait in an inbox until you accept them.' },
  { key: 'consolidation', label: 'Tidy memory in the background', hint: 'At most daily, after 5 conversations: merges, date fixes and removals wait in the Inbox.' },
  { key: 'consolidationAutoApply', label: 'Apply tidy-ups without asking', hint: 'Each change still goes to history and can be undone from the Inbox.' },
  { key: 'teamSync', label: 'Team memory sync', hint: 'Sync memory/team/ with your team server.' },
  { key: 'alwaysAllowWrites', label: 'Write files without asking', hint: 'Set by “Always allow in this project”; turn off to be asked again.' },
];

/** The open project's switches and team memory sign-in. */
export function ProjectSection({ settings, project }: { settings: Settings; project: string }) {
  const current: ProjectSettings = settings.projects[project] ?? projectSettingsSchema.parse({});
  const { status } = useStoreShallow((s) => ({ status: s.team[project] }));
  const [repo, setRepo] = useState(current.teamRepo ?? '');
  useEffect(() => setRepo(current.teamRepo ?? ''), [current.teamRepo]);
  useEffect(() => {
    void loadTeamStatus(project);
  }, [project]);

  const update = (patch: Partial<ProjectSettings>) =>
    saveSettings({ projects: { ...settings.projects, [project]: { ...current, ...patch } } });
  const repoValid = repo.trim() === '' || /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/.test(repo.trim());

  return (
    <section className="card" aria-labelledby="project-settings-heading">
      <h2 id="project-settings-heading">This project</h2>
      <p className="muted small">{project}</p>
      {switches.map((s) => (
        <label key={s.key} className="switch-row">
          <input type="checkbox" checked={current[s.key]} onChange={(e) => void update({ [s.key]: e.target.checked })} />
          <span>
            <strong>{s.label}</strong>
            <span className="muted small"> — {s.hint}</span>
          </span>
        </label>
      ))}
      <h3>Team memory</h3>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (repoValid) void update({ teamRepo: repo.trim() || null }).then(() => loadTeamStatus(project));
        }}
      >
        <label className="field grow">
          <span>Repository (owner/name), used when the project’s git remote gives none</span>
          <input className="input" value={repo} aria-invalid={!repoValid} onChange={(e) => setRepo(e.target.value)} placeholder="acme/website" />
          {!repoValid && <span className="error-text small">Use the form owner/name.</span>}
        </label>
        <button type="submit" className="button secondary" disabled={!repoValid}>
          Save
        </button>
      </form>
      {status ? (
        <div className="team-status">
          <p className="small">
            {status.repo ? `Repository: ${status.repo}${current.teamRepo && current.teamRepo !== status.repo ? ' (from the git remote, which comes first)' : ''}. ` : ''}
            {status.repoProblem ?? ''}
            {status.serverUrl ? ` Server: ${status.serverUrl}.` : ' Set a team server URL above to sync.'}
          </p>
          <div className="row">
            {status.signedIn ? (
              <>
                <span className="ok-text small">Signed in{status.account ? ` as ${status.account}` : ''}.</span>
                <button type="button" className="button secondary" onClick={() => void syncNow(project)}>
                  Sync now
                </button>
                <button type="button" className="button ghost" onClick={() => void signOut(project)}>
                  Sign out
                </button>
              </>
            ) : (
              <button type="button" className="button primary" disabled={!status.serverUrl} onClick={() => void signIn(project)}>
                Sign in to the team server
              </button>
            )}
          </div>
          {!status.signedIn && status.signInUrl && (
            <p className="small" role="status">
              Finish signing in in your browser.{' '}
              <a href={status.signInUrl} target="_blank" rel="noopener noreferrer">
                Open the sign-in page again
              </a>
            </p>
          )}
          {status.error && <p className="error-text small">{status.error}</p>}
        </div>
      ) : (
        <p className="muted small">Reading the team memory state…</p>
      )}
    </section>
  );
}
