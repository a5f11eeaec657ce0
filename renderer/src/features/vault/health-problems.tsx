import { useState } from 'react';
import type { HealthFixKind, HealthProblem } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { deleteFile, openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { useFileName } from './file-name';
import { FirstRows } from './first-rows';
import { useProjectLabel } from './project-label';

/** Each kind's heading, in the order the report groups them. */
const headings: Record<HealthFixKind, string> = {
  frontmatter: 'Memories with a damaged header',
  'broken-pointer': 'Index lines that point at nothing',
  'missing-from-index': 'Memories missing from their index',
  expired: 'Past their valid-until day',
  'review-due': 'Due for review',
  stale: 'Not updated in 90 days',
};

/**
 * Everything Health can fix, grouped by kind: each row with its one-click fix, each kind with "Fix all".
 * `onFixed` re-runs the check, so a fixed row leaves the list because the vault no longer has it.
 */
export function HealthProblems({ problems, onFixed }: { problems: readonly HealthProblem[]; onFixed: () => void }) {
  const [busy, setBusy] = useState(false);
  // Looked up once for all rows: the name lookup maps every vault file, and Health may list thousands.
  const name = useFileName();
  const label = useProjectLabel();
  const fix = async (kind: HealthFixKind, paths?: string[]) => {
    setBusy(true);
    const result = await api.invoke['vault:health-fix'](paths ? { kind, paths } : { kind });
    setBusy(false);
    const store = useStore.getState();
    if (!result.ok) store.showError(result.error);
    else if (result.value.failed.length > 0) {
      const first = result.value.failed[0]!;
      const more = result.value.failed.length - 1;
      store.showError({ code: 'io_error', message: `Could not fix ${first.path}: ${first.reason}${more > 0 ? ` (and ${more} more)` : ''}` });
    }
    onFixed();
  };
  const kinds = [...new Set(problems.map((p) => p.kind))];
  return (
    <>
      {kinds.map((kind) => {
        const rows = problems.filter((p) => p.kind === kind);
        const headingId = `health-${kind}`;
        return (
          <section key={kind} aria-labelledby={headingId} className="health-kind">
            <div className="health-kind-head">
              <h2 id={headingId}>{headings[kind]}</h2>
              {rows.length > 1 && (
                <button type="button" className="button small" disabled={busy} onClick={() => void fix(kind)}>
                  Fix all {rows.length.toLocaleString()}
                </button>
              )}
            </div>
            <ul className="plain-list">
              <FirstRows items={rows} render={(p) => <ProblemRow key={p.path} problem={p} busy={busy} name={name} label={label} onFix={() => void fix(kind, [p.path])} />} />
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
  onFix: () => void;
}

function ProblemRow({ problem, busy, name, label, onFix }: RowProps) {
  // A broken pointer's path names a file that does not exist: say whose index it is instead.
  const subject =
    problem.kind === 'broken-pointer' ? (
      <span>{problem.team ? 'Team memory' : problem.projectSlug ? label(problem.projectSlug) : 'Memory'}:</span>
    ) : (
      <button type="button" className="link" title={problem.path} onClick={() => void openFile(problem.path)}>
        {name(problem.path)}
      </button>
    );
  return (
    <li>
      {subject} {problem.message}{' '}
      <button type="button" className="link" disabled={busy} onClick={onFix} aria-label={`${problem.fix}: ${name(problem.path)}`}>
        {problem.fix}
      </button>
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
