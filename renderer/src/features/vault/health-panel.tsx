import { useEffect, useState } from 'react';
import type { HealthReport } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { deleteFile, openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { useProjectLabel } from './project-label';
import { useFileName } from './file-name';
import { FirstRows } from './first-rows';
import { HealthProblems } from './health-problems';
import { NeverUsedMemories } from './memory-use';

const fileName = (path: string) => path.split('/').pop() ?? path;

function FileLink({ path }: { path: string }) {
  const name = useFileName();
  return (
    <button type="button" className="link" title={path} onClick={() => void openFile(path)}>
      {name(path)}
    </button>
  );
}

/**
 * The last report, shown at once when the panel opens again while a fresh check runs (a check over
 * 10,000 notes takes a moment; the panel should not be blank meanwhile).
 */
let lastReport: HealthReport | null = null;

/** What costs tokens, what is wrong (each with its one-click fix), what is duplicated or costly. */
export function HealthPanel() {
  const label = useProjectLabel();
  const name = useFileName();
  const [report, setReport] = useState<HealthReport | null>(lastReport);
  const [checking, setChecking] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const [checks, setChecks] = useState(0);
  // Re-checked after each fix, and when files change on disk (the list is the cheapest signal of it).
  const filesVersion = useStore((s) => s.files);
  useEffect(() => {
    let current = true;
    setChecking(true);
    void api.invoke['vault:health']({}).then((r) => {
      if (!current) return;
      setChecking(false);
      if (r.ok) {
        lastReport = r.value;
        setReport(r.value);
      } else setProblem(r.error.message);
    });
    return () => {
      current = false;
    };
  }, [checks, filesVersion]);
  const recheck = () => setChecks((n) => n + 1);
  // A delete reloads the file list, which re-runs the check above.
  const remove = (path: string) => deleteFile(path, { stay: true });
  if (problem) return <p className="error-text" role="alert">{problem}</p>;
  if (!report) return <p className="muted">Checking the vault…</p>;
  const openIndex = (projectSlug: string) => {
    const s = useStore.getState();
    s.setIndexTarget({ projectSlug, team: false });
    s.setPanel('index');
  };
  const allGood = report.problems.length + report.duplicates.length + report.largeInstructions.length === 0;
  return (
    <section className="health-panel" aria-labelledby="health-heading">
      <h1 id="health-heading">Vault health</h1>
      {checking && (
        <p className="muted small" role="status">
          Checking again…
        </p>
      )}
      <p>
        About <strong>{report.totalTokens.toLocaleString()}</strong> tokens of memory and instructions in all.
      </p>
      {/* The summary counts every problem, an index over its cap included (docs/memory.md#vault-upkeep). */}
      {allGood ? (
        <p className="ok-text">Nothing to fix.</p>
      ) : (
        report.problems.length > 0 && (
          <p className="warning-text">{report.problems.length === 1 ? 'One thing to fix, below.' : `${report.problems.length.toLocaleString()} things to fix, below.`}</p>
        )
      )}
      {report.indexes.map((ix) => (
        <p key={ix.projectSlug} className={ix.lines > ix.maxLines * 0.9 || ix.chars > ix.maxChars * 0.9 ? 'warning-text' : 'muted'}>
          {label(ix.projectSlug)} MEMORY.md: {ix.lines}/{ix.maxLines} lines, {ix.chars.toLocaleString()}/
          {ix.maxChars.toLocaleString()} characters.{' '}
          <button type="button" className="link" onClick={() => openIndex(ix.projectSlug)}>
            Open the index
          </button>
        </p>
      ))}
      <HealthProblems problems={report.problems} onFixed={recheck} />
      <NeverUsedMemories open={(path) => void openFile(path)} name={name} />
      {report.duplicates.length > 0 && (
        <>
          <h2>Near-duplicates</h2>
          <ul className="plain-list">
            <FirstRows
              items={report.duplicates}
              render={(d) => (
                <li key={`${d.a}|${d.b}`}>
                  <FileLink path={d.a} /> and <FileLink path={d.b} /> {d.why === 'description' ? 'have the same description' : 'say nearly the same'}. Merge
                  what one adds into the other, then delete it:{' '}
                  <button type="button" className="link danger" onClick={() => void remove(d.a)}>
                    Delete {fileName(d.a)}
                  </button>{' '}
                  or{' '}
                  <button type="button" className="link danger" onClick={() => void remove(d.b)}>
                    Delete {fileName(d.b)}
                  </button>
                </li>
              )}
            />
          </ul>
        </>
      )}
      {report.largeInstructions.length > 0 && (
        <>
          <h2>Costly instructions</h2>
          <ul className="plain-list">
            {report.largeInstructions.map((l) => (
              <li key={l.path}>
                <FileLink path={l.path} /> has {l.chars.toLocaleString()} characters, loaded into every conversation. Move details into
                memories the agent reads on demand.
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Largest files</h2>
      <ol className="plain-list">
        {[...report.files].sort((a, b) => b.tokens - a.tokens).slice(0, 10).map((f) => (
          <li key={f.path}>
            <FileLink path={f.path} /> — ~{f.tokens.toLocaleString()} tokens
          </li>
        ))}
      </ol>
    </section>
  );
}
