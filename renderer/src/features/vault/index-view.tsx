import { useEffect, useState } from 'react';
import type { MemoryIndexView } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { openFile } from '../../bridge/vault-actions';
import { useStoreShallow, useStore } from '../../store';

function Headroom({ h }: { h: MemoryIndexView['headroom'] }) {
  const near = h.lines > h.maxLines * 0.9 || h.chars > h.maxChars * 0.9;
  return (
    <p className={near ? 'warning-text' : 'muted'}>
      {h.lines} / {h.maxLines} lines · {h.chars.toLocaleString()} / {h.maxChars.toLocaleString()} characters · ~
      {h.tokens.toLocaleString()} tokens loaded into every conversation
      {near ? ' — nearly full: merge related entries before the end is cut.' : ''}
    </p>
  );
}

/** MEMORY.md as the model sees it: each line with its target, broken pointers, files left out. */
export function IndexView() {
  const { target } = useStoreShallow((s) => ({ target: s.indexTarget }));
  const [view, setView] = useState<MemoryIndexView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!target) return;
    void api.invoke['vault:memory-index'](target).then((r) => (r.ok ? setView(r.value) : setProblem(r.error.message)));
  }, [target]);

  if (!target) return <p className="muted">Choose a project's MEMORY.md.</p>;
  if (problem) return <p className="error-text" role="alert">{problem}</p>;
  if (!view) return <p className="muted">Reading the index…</p>;

  const fix = async (kind: 'add-missing' | 'remove-broken', file: string) => {
    const result = await api.invoke['vault:fix-index']({ ...target, fix: kind, target: file });
    if (result.ok) setView(result.value);
    else useStore.getState().showError(result.error);
  };

  return (
    <section className="index-view" aria-labelledby="index-heading">
      <h1 id="index-heading">{target.team ? 'Team' : 'Project'} memory index</h1>
      <Headroom h={view.headroom} />
      {view.lines.length === 0 ? (
        <p className="muted">The index is empty. Memories the agent saves are listed here, one line each.</p>
      ) : (
        <table className="index-table">
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Memory</th>
              <th scope="col">Hook</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {view.lines.map((l) => (
              <tr key={l.line} className={l.broken ? 'broken' : undefined}>
                <td>{l.line}</td>
                <td>
                  {l.broken ? (
                    <span className="error-text">
                      {l.title} → <code>{l.target}</code> (missing)
                    </span>
                  ) : (
                    <button type="button" className="link" onClick={() => void openFile(`projects/${view.projectSlug}/memory/${target.team ? 'team/' : ''}${l.target}`)}>
                      {l.title}
                    </button>
                  )}
                </td>
                <td className="muted">{l.hook}</td>
                <td>
                  {l.broken && (
                    <button type="button" className="button ghost" onClick={() => void fix('remove-broken', l.target)}>
                      Remove line
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view.missing.length > 0 && (
        <>
          <h2>Not in the index</h2>
          <p className="muted small">The model only finds these by searching. Add a line so it sees them at the start of every conversation.</p>
          <ul className="plain-list">
            {view.missing.map((file) => (
              <li key={file} className="row">
                <code>{file}</code>
                <button type="button" className="button secondary" onClick={() => void fix('add-missing', file)}>
                  Add to index
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
