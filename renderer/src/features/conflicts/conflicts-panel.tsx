import { useEffect, useState } from 'react';
import type { BlockedFile } from '../../../../common/domain/team';
import { loadTeamStatus } from '../../bridge/team-actions';
import { useStoreShallow, useStore } from '../../store';
import { AtLineEditor } from './at-line-editor';
import { Resolver } from './resolver';
import { DeletedList } from './deleted-list';
import { NotASecretInFile } from '../secrets/not-a-secret';
import { clockTime } from '../shell/sync-indicator';
import { syncNow } from '../../bridge/team-actions';
import { kindInWords } from '../../bridge/secrets-actions';
import { useRuleKinds } from '../secrets/rule-kinds';
import './conflicts.css';

/** `a GitHub personal access token on line 3, an AWS access key on line 9`: every finding, so all can be cleared in one pass. */
function findingsText(b: BlockedFile, kinds: Record<string, string>): string {
  const findings = b.findings.length > 0 ? b.findings : [b];
  return findings.map((f) => `${kindInWords(kinds, f.rule)} on line ${f.line}`).join(', ');
}

/** The conflict inbox, and the files the secret scanner keeps from leaving this machine. */
export function ConflictsPanel() {
  const { project, status, conflict, files, slug } = useStoreShallow((s) => ({
    project: s.activeProject,
    status: s.activeProject ? s.team[s.activeProject] : undefined,
    conflict: s.conflict,
    files: s.files,
    slug: s.projects.find((p) => p.path === s.activeProject)?.memorySlug ?? null,
  }));
  // A conflict is listed by its memory's name (the vault's title of the file), its file name beside it.
  const titleOf = (key: string) => files.find((f) => f.path === `projects/${slug}/memory/team/${key}`)?.title ?? key;
  const [atLine, setAtLine] = useState<string | null>(null);
  const kinds = useRuleKinds();
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
      {status.phase === 'offline' && (
        <p className="notice" role="status">
          {status.error ? `${status.error[0]!.toUpperCase()}${status.error.slice(1)}.` : 'Offline — changes stay pending.'}
          {status.nextSyncAt ? ` Strata tries again at ${clockTime(status.nextSyncAt)}.` : ''}{' '}
          <button type="button" className="link" onClick={() => void syncNow(project)}>
            Try now
          </button>
        </p>
      )}
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
                  {titleOf(key)}
                </button>
                {titleOf(key) !== key && <span className="muted small"> · {key}</span>}
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
                <code>{b.key}</code> — {findingsText(b, kinds)}{' '}
                <button type="button" className="link" aria-expanded={atLine === b.key} onClick={() => setAtLine(atLine === b.key ? null : b.key)}>
                  Open at line {b.line}
                </button>
                {(b.findings.length > 0 ? b.findings : [{ rule: b.rule, line: b.line }]).map((f) => (
                  <span key={`${f.rule}:${f.line}:${f.column ?? ''}`}>
                    {' '}
                    <NotASecretInFile project={project} path={b.path} line={f.line} {...(f.column === undefined ? {} : { column: f.column })} rule={f.rule} />
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
