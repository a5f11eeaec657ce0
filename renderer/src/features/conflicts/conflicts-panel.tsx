import { useEffect, useState } from 'react';
import type { BlockedFile, ConflictView } from '../../../../common/domain/team';
import { api } from '../../bridge';
import { loadTeamStatus, resolveConflict } from '../../bridge/team-actions';
import { useStoreShallow, useStore } from '../../store';
import { AtLineEditor } from './at-line-editor';
import { MergeEditor } from './merge-editor';
import { ReadOnlyPane } from './read-only-pane';
import { DeletedList } from './deleted-list';
import { NotASecretInFile } from '../secrets/not-a-secret';
import './conflicts.css';

function Resolver({ project, keyName }: { project: string; keyName: string }) {
  const [view, setView] = useState<ConflictView | null>(null);
  const [merged, setMerged] = useState<string | null>(null);
  useEffect(() => {
    setMerged(null);
    setView(null);
    void api.invoke['team:read-conflict']({ project, key: keyName }).then((r) =>
      r.ok ? setView(r.value) : useStore.getState().showError(r.error),
    );
  }, [project, keyName]);
  if (!view) return <p className="muted">Opening the conflict…</p>;
  return (
    <section className="resolver" aria-labelledby="resolver-heading">
      <h2 id="resolver-heading">{keyName}</h2>
      <p className="muted small">
        You and a teammate both changed this file since the last sync. Nothing is lost: your version stays in place until you
        choose. Edit your version (the middle pane) to merge, or take their chunks one by one.
        {view.mine === null ? ' You deleted it; they edited it.' : ''}
        {view.theirs === null ? ' They deleted it; you edited it.' : ''}
      </p>
      <div className="merge-panes">
        <div className="merge-labels" aria-hidden="true">
          <span>Base — the last agreed version</span>
          <span>Mine — the result</span>
          <span>Theirs</span>
        </div>
        <ReadOnlyPane
          className="base-pane"
          docKey={`${project}:${keyName}`}
          text={view.base ?? '(no agreed version: the file is new on both sides)'}
          label="Base version (last agreed)"
        />
        <MergeEditor docKey={`${project}:${keyName}`} mine={view.mine ?? ''} theirs={view.theirs ?? ''} onResult={setMerged} />
      </div>
      <div className="row end">
        <button type="button" className="button ghost" onClick={() => void resolveConflict(project, keyName, 'theirs')}>
          Keep theirs
        </button>
        <button type="button" className="button ghost" onClick={() => void resolveConflict(project, keyName, 'both')}>
          Keep both
        </button>
        <button type="button" className="button secondary" onClick={() => void resolveConflict(project, keyName, 'mine')}>
          Keep mine
        </button>
        <button
          type="button"
          className="button primary"
          disabled={merged === null}
          onClick={() => merged !== null && void resolveConflict(project, keyName, 'merged', merged)}
        >
          Save merged
        </button>
      </div>
    </section>
  );
}

/** `github-pat on line 3, aws-access-key on line 9`: every finding, so all can be cleared in one pass. */
function findingsText(b: BlockedFile): string {
  const findings = b.findings.length > 0 ? b.findings : [b];
  return findings.map((f) => `${f.rule} on line ${f.line}`).join(', ');
}

/** The conflict inbox, and the files the secret scanner keeps from leaving this machine. */
export function ConflictsPanel() {
  const { project, status, conflict } = useStoreShallow((s) => ({
    project: s.activeProject,
    status: s.activeProject ? s.team[s.activeProject] : undefined,
    conflict: s.conflict,
  }));
  const [atLine, setAtLine] = useState<string | null>(null);
  useEffect(() => {
    if (project) void loadTeamStatus(project);
  }, [project]);
  if (!project) return <p className="muted">Open a project to see its team memory.</p>;
  if (!status) return <p className="muted">Reading the sync state…</p>;
  const s = useStore.getState();
  const opened = status.blocked.find((b) => b.key === atLine);
  const nothing = status.conflicts.length + status.blocked.length + status.tooLarge.length + status.invalidNames.length === 0;
  return (
    <section className="conflicts-panel" aria-labelledby="conflicts-heading">
      <h1 id="conflicts-heading">Team memory{status.repo ? ` — ${status.repo}` : ''}</h1>
      {status.repoProblem && <p className="notice">{status.repoProblem}</p>}
      {nothing && !status.repoProblem && <p className="ok-text">No conflicts and nothing blocked.</p>}
      {status.conflicts.length > 0 && (
        <>
          <h2>Conflicts</h2>
          <ul className="plain-list">
            {status.conflicts.map((key) => (
              <li key={key}>
                <button
                  type="button"
                  className="link"
                  aria-current={conflict?.key === key ? 'true' : undefined}
                  onClick={() => s.openConflict({ project, key })}
                >
                  {key}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {conflict && conflict.project === project && <Resolver project={project} keyName={conflict.key} />}
      {status.blocked.length > 0 && (
        <>
          <h2>Kept on this machine: a secret was found</h2>
          <p className="muted small">These files are not uploaded until the secret is removed. The secret itself is never shown or sent.</p>
          <ul className="plain-list">
            {status.blocked.map((b) => (
              <li key={b.key}>
                <code>{b.key}</code> — {findingsText(b)}{' '}
                <button type="button" className="link" aria-expanded={atLine === b.key} onClick={() => setAtLine(atLine === b.key ? null : b.key)}>
                  Open at line {b.line}
                </button>
                {(b.findings.length > 0 ? b.findings : [b]).map((f) => (
                  <span key={`${f.rule}:${f.line}`}>
                    {' '}
                    <NotASecretInFile project={project} path={b.path} line={f.line} rule={f.rule} />
                  </span>
                ))}
                {opened?.key === b.key && <AtLineEditor path={b.path} line={b.line} rule={b.rule} onClose={() => setAtLine(null)} />}
              </li>
            ))}
          </ul>
        </>
      )}
      {status.tooLarge.length > 0 && (
        <>
          <h2>Too large to sync</h2>
          <ul className="plain-list">
            {status.tooLarge.map((key) => (
              <li key={key}>
                <code>{key}</code> is over 250,000 bytes; split it into smaller memories.
              </li>
            ))}
          </ul>
        </>
      )}
      {status.invalidNames.length > 0 && (
        <>
          <h2>Names the team server refuses</h2>
          <p className="muted small">These files stay on this machine until they are renamed.</p>
          <ul className="plain-list">
            {status.invalidNames.map((n) => (
              <li key={n.key}>
                <code>{n.key}</code>: {n.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {!status.repoProblem && status.signedIn && <DeletedList project={project} lastSyncAt={status.lastSyncAt} />}
    </section>
  );
}
