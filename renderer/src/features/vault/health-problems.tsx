import { useState } from 'react';
import type { HealthFixKind, HealthProblem, HealthProblemKind } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { deleteFile, openFile, showFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { useFileName } from './file-name';
import { FirstRows } from './first-rows';
import { fixNote, FixNoteView, undoFix, type FixNote } from './health-fix-note';
import { makeRoom } from './make-room';
import { useProjectLabel } from './project-label';
import './health.css';
import '../shell/loading.css';

/** Each kind's heading, in the order the report groups them. */
const headings: Record<HealthProblemKind, string> = {
  'index-over-cap': 'Indexes longer than the agent reads',
  frontmatter: 'Memories with a damaged header',
  'broken-pointer': 'Index lines that point at nothing',
  'missing-from-index': 'Memories missing from their index',
  expired: 'Past their valid-until day',
  'review-due': 'Due for review',
  stale: 'Not updated in 90 days',
};

/** What a running fix says while it works (a fix over thousands of files takes a moment). */
const working: Record<HealthFixKind, string> = {
  frontmatter: 'Repairing',
  'broken-pointer': 'Removing',
  'missing-from-index': 'Adding',
  expired: 'Renewing',
  'review-due': 'Marking',
  stale: 'Marking',
};

/**
 * Everything Health can fix, grouped by kind: each row with its one-click fix, each kind with "Fix all".
 * A running fix keeps its button, disabled, saying what it does; its result stays above the list with
 * Undo (the whole fix in one step) until the next. `onFixed` re-runs the check, so a fixed row leaves
 * the list because the vault no longer has it.
 */
export function HealthProblems({ problems, onFixed }: { problems: readonly HealthProblem[]; onFixed: () => void }) {
  const [busy, setBusy] = useState<{ kind: HealthFixKind; count: number; all: boolean } | null>(null);
  const [note, setNote] = useState<FixNote | null>(null);
  const [undoing, setUndoing] = useState(false);
  const locked = busy !== null || undoing;
  // Looked up once for all rows: the name lookup maps every vault file, and Health may list thousands.
  const name = useFileName();
  const label = useProjectLabel();
  const fix = async (kind: HealthFixKind, rows: readonly HealthProblem[], paths?: string[], all = !paths) => {
    setBusy({ kind, count: paths?.length ?? rows.length, all });
    setNote(null);
    const result = await api.invoke['vault:health-fix'](paths ? { kind, paths } : { kind });
    setBusy(null);
    if (!result.ok) useStore.getState().showError(result.error);
    else {
      const row = rows.find((p) => !paths || paths.includes(p.path));
      setNote(fixNote(kind, result.value, row?.projectSlug ?? null, row?.team ?? false));
    }
    onFixed();
  };
  const undo = async (undoToken: string) => {
    setUndoing(true);
    setNote(await undoFix(undoToken));
    setUndoing(false);
    onFixed();
  };
  const kinds = [...new Set(problems.map((p) => p.kind))];
  return (
    <>
      {busy && (
        <p className="health-note working" role="status">
          <span className="spinner" aria-hidden="true" /> {working[busy.kind]} {busy.count.toLocaleString()}… this can take a moment.
        </p>
      )}
      {note && !busy && <FixNoteView note={note} busy={undoing} onUndo={() => note.undoToken && void undo(note.undoToken)} />}
      {kinds.map((kind) => {
        const rows = problems.filter((p) => p.kind === kind);
        const headingId = `health-${kind}`;
        const fixKind = kind === 'index-over-cap' ? null : kind;
        const running = busy?.all && busy.kind === kind;
        // Rows of a full index wait for a tidy-up: "Fix all" is for the others, the tidy-up for them.
        const fixable = rows.filter((p) => !p.next);
        const waiting = rows.find((p) => p.next === 'tidy');
        const tidy = waiting ? makeRoom(waiting.projectSlug, waiting.team, showFile) : null;
        return (
          <section key={kind} aria-labelledby={headingId} className="health-kind">
            <div className="health-kind-head">
              <h2 id={headingId}>{headings[kind]}</h2>
              {fixKind && fixable.length > 1 && (
                <button
                  type="button"
                  className="button small"
                  disabled={locked}
                  aria-busy={running || undefined}
                  onClick={() => void fix(fixKind, fixable, waiting ? fixable.map((p) => p.path) : undefined, true)}
                >
                  {running ? (
                    <>
                      <span className="spinner" aria-hidden="true" /> {working[fixKind]}…
                    </>
                  ) : (
                    `Fix all ${fixable.length.toLocaleString()}`
                  )}
                </button>
              )}
              {tidy && (
                <button type="button" className="button small secondary" disabled={locked} onClick={tidy.run}>
                  {tidy.label}
                </button>
              )}
            </div>
            {waiting && (
              <p className="muted small">
                {rows.length - fixable.length === 1 ? 'One memory waits' : `${(rows.length - fixable.length).toLocaleString()} memories wait`} for room in a full
                index: the agent reads only its first lines, so {waiting.team ? 'shortening the team index' : 'a tidy-up that merges memories and shortens the index'} comes first.
                {!tidy && ' Open its project in Chat to tidy it from the Inbox.'}
              </p>
            )}
            <ul className="plain-list">
              <FirstRows
                items={rows}
                render={(p) => (
                  <ProblemRow
                    key={p.path}
                    problem={p}
                    busy={locked}
                    name={name}
                    label={label}
                    onFix={p.next ? undefined : fixKind ? () => void fix(fixKind, rows, [p.path]) : (makeRoom(p.projectSlug, p.team, showFile)?.run ?? null)}
                  />
                )}
              />
            </ul>
          </section>
        );
      })}
    </>
  );
}

interface RowProps {
  problem: HealthProblem;
  busy: boolean;
  name: (path: string) => string;
  label: (projectSlug: string) => string;
  /** Null: no fix here (an over-cap index whose project is not open to tidy); absent: the section's tidy-up is its fix. */
  onFix?: (() => void) | null;
}

function ProblemRow({ problem, busy, name, label, onFix }: RowProps) {
  // A broken pointer's path names a file that does not exist: say whose index it is instead.
  const subject =
    problem.kind === 'broken-pointer' || problem.kind === 'index-over-cap' ? (
      <span>{problem.team ? 'Team memory' : problem.projectSlug ? label(problem.projectSlug) : 'Memory'}:</span>
    ) : (
      <button type="button" className="link" title={problem.path} onClick={() => void openFile(problem.path)}>
        {name(problem.path)}
      </button>
    );
  return (
    <li>
      {subject} {problem.message}{' '}
      {onFix ? (
        <button type="button" className="link" disabled={busy} onClick={onFix} aria-label={`${problem.fix}: ${name(problem.path)}`}>
          {problem.fix}
        </button>
      ) : (
        onFix === null && <span className="muted">Open its project in Chat to tidy it from the Inbox.</span>
      )}
      {(problem.kind === 'stale' || problem.kind === 'expired' || problem.kind === 'review-due') && (
        <>
          {' '}
          <button
            type="button"
            className="link danger"
            disabled={busy}
            onClick={() => void deleteFile(problem.path, { stay: true })}
            aria-label={`Delete ${name(problem.path)}`}
          >
            Delete
          </button>
        </>
      )}
    </li>
  );
}
