import { useState } from 'react';
import type { Project } from '../../../../common/domain/app';
import { useStore } from '../../store';
import { downloadExport, exportText } from './portability-actions';

/** Export a project's or the whole vault's memory: a zip of the files, or one document to paste elsewhere. */
export function ExportSection({ project }: { project: Project | undefined }) {
  const [whole, setWhole] = useState(!project);
  const [busy, setBusy] = useState(false);
  const target = whole ? undefined : project?.path;
  const run = (fn: () => Promise<unknown>) => {
    setBusy(true);
    void fn().finally(() => setBusy(false));
  };
  return (
    <section className="export-section" aria-labelledby="export-heading">
      <h2 id="export-heading">Take memory elsewhere</h2>
      <div className="row" role="radiogroup" aria-label="Export what">
        <label className="row small">
          <input type="radio" name="export-scope" checked={!whole} disabled={!project} onChange={() => setWhole(false)} />
          {project ? `This project (${project.name})` : 'This project (open one first)'}
        </label>
        <label className="row small">
          <input type="radio" name="export-scope" checked={whole} onChange={() => setWhole(true)} />
          The whole vault
        </label>
      </div>
      <div className="row">
        <button type="button" className="button secondary" disabled={busy} onClick={() => run(() => downloadExport(target, 'zip'))}>
          Download a zip of markdown files
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={() => run(() => downloadExport(target, 'markdown'))}>
          Download one markdown document
        </button>
        <button
          type="button"
          className="button ghost"
          disabled={busy}
          onClick={() =>
            run(async () => {
              const text = await exportText(target);
              if (text === null) return;
              await navigator.clipboard.writeText(text).then(
                () => useStore.getState().showToast({ text: 'Copied: paste it into the other assistant' }),
                () => useStore.getState().showError({ code: 'unsupported', message: 'The clipboard is not available here; download the document instead.' }),
              );
            })
          }
        >
          Copy as text
        </button>
      </div>
      <p className="small muted">The zip holds the files exactly as they are; importing it here gives the same files back.</p>
    </section>
  );
}
