import { useState } from 'react';
import type { ImportPreview, ImportResult } from '../../../../common/domain/portability';
import { importSourceLabels } from '../../../../common/domain/portability';
import { useStore, useStoreShallow } from '../../store';
import { FolderChooser } from '../projects/folder-chooser';
import { ImportPreviewList, previewRows, type PreviewRow } from './import-preview';
import { ImportWritten } from './import-written';
import { ExportSection } from './export-section';
import { previewNotes, previewPaste, redoImport, undoImport, writeItems } from './portability-actions';
import './portability.css';

/** What to ask the other assistant, so its answer comes back in a shape the import reads best. */
export const ASK_PROMPT =
  'List everything you remember about me, one item per line, each starting with the date you saved it, like: [2024-05-12] - the memory. Include preferences about how I like you to answer.';

type Source = 'chatgpt' | 'claude' | 'other';

/** Import from another assistant or a notes folder, then export (docs/memory-upkeep.md). */
export function PortabilityPanel() {
  // The pasted answer lives in the store, so it is still there after the user goes elsewhere and comes back.
  const { activeProject, projects, text, setText } = useStoreShallow((s) => ({ activeProject: s.activeProject, projects: s.projects, text: s.importDraft, setText: s.setImportDraft }));
  const project = projects.find((p) => p.path === activeProject);
  const [mode, setMode] = useState<'paste' | 'notes'>('paste');
  const [source, setSource] = useState<Source>('chatgpt');
  const [notesPath, setNotesPath] = useState('');
  const [choosing, setChoosing] = useState(false);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [rows, setRows] = useState<PreviewRow[]>([]);
  const [team, setTeam] = useState(false);
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<ImportResult | null>(null);
  /** Set once the import is undone: what brings it back. */
  const [undoTokens, setUndoTokens] = useState<string[] | null>(null);
  const undo = (result: ImportResult) => void run(async () => setUndoTokens(await undoImport(result.written)));

  const show = (p: ImportPreview | null) => {
    setPreview(p);
    setRows(p ? previewRows(p.items) : []);
    setWritten(null);
    setUndoTokens(null);
  };
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };
  const kept = rows.filter((r) => r.keep && r.item.name.trim() && r.item.description.trim());
  const flagged = rows.filter((r) => r.item.findings).length;

  return (
    <section className="portability" aria-labelledby="portability-heading">
      <header className="file-header">
        <h1 id="portability-heading">Import and export memory</h1>
      </header>

      <h2>Bring memory in</h2>
      <div className="row" role="radiogroup" aria-label="Import from">
        <label className="row small">
          <input type="radio" name="import-mode" checked={mode === 'paste'} onChange={() => setMode('paste')} />
          An answer from ChatGPT or Claude
        </label>
        <label className="row small">
          <input type="radio" name="import-mode" checked={mode === 'notes'} onChange={() => setMode('notes')} />
          A folder of markdown notes (or a zip)
        </label>
      </div>

      {mode === 'paste' ? (
        <form
          className="import-source"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) void run(async () => show(await previewPaste(source, text)));
          }}
        >
          <p className="small muted">
            Ask the other assistant: <q className="ask-prompt">{ASK_PROMPT}</q> Then paste its whole answer here.
          </p>
          <div className="row">
            <label htmlFor="import-source" className="small">
              Answer from
            </label>
            <select id="import-source" className="input" value={source} onChange={(e) => setSource(e.target.value as Source)}>
              {(['chatgpt', 'claude', 'other'] as const).map((s) => (
                <option key={s} value={s}>
                  {importSourceLabels[s]}
                </option>
              ))}
            </select>
          </div>
          <textarea
            className="input"
            aria-label="Pasted answer"
            rows={7}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="[2024-05-12] - Is a product designer at Figma…"
          />
          <button type="submit" className="button primary" disabled={busy || !text.trim()}>
            Preview
          </button>
        </form>
      ) : (
        <form
          className="import-source"
          onSubmit={(e) => {
            e.preventDefault();
            if (notesPath.trim()) void run(async () => show(await previewNotes(notesPath.trim())));
          }}
        >
          <div className="row">
            <input
              className="input grow"
              aria-label="Notes folder or zip"
              value={notesPath}
              onChange={(e) => setNotesPath(e.target.value)}
              placeholder="/home/you/Notes or /home/you/strata-memory.zip"
            />
            <button type="button" className="button secondary" onClick={() => setChoosing(true)}>
              Choose…
            </button>
          </div>
          <button type="submit" className="button primary" disabled={busy || !notesPath.trim()}>
            Preview
          </button>
        </form>
      )}

      {preview &&
        (preview.items.length === 0 ? (
          <p className="muted">Nothing in it looks like a memory.</p>
        ) : (
          <div className="import-result">
            <h2>
              Preview: {kept.length} of {rows.length} to import from {importSourceLabels[preview.source]}
            </h2>
            {flagged > 0 && (
              <p className="small warning-text" role="status">
                {flagged === 1 ? '1 memory is' : `${flagged} memories are`} kept out: {flagged === 1 ? 'it may hold a secret' : 'they may hold secrets'}. Nothing with a secret is
                imported, here or at the write.
              </p>
            )}
            <ImportPreviewList preview={preview} rows={rows} onChange={setRows} />
            {project ? (
              <div className="row import-actions">
                <label className="row small">
                  <input type="checkbox" checked={team} onChange={(e) => setTeam(e.target.checked)} />
                  Team memory
                </label>
                <button
                  type="button"
                  className="button primary"
                  disabled={busy || kept.length === 0}
                  onClick={() =>
                    void run(async () => {
                      const done = await writeItems(project.path, team, kept.map((r) => r.item), undo);
                      if (done) {
                        setWritten(done);
                        setUndoTokens(null);
                        // What the write's own scan held back stays in the preview, flagged, to settle there.
                        setPreview(done.heldBack.length ? { ...preview, items: done.heldBack, skipped: [] } : null);
                        setRows(previewRows(done.heldBack));
                      }
                    })
                  }
                >
                  Write {kept.length} {kept.length === 1 ? 'memory' : 'memories'} to {project.name}
                </button>
              </div>
            ) : (
              <p className="muted">Open a project folder first: memories belong to a project.</p>
            )}
          </div>
        ))}
      {written && (
        <ImportWritten
          result={written}
          undone={undoTokens !== null}
          onUndo={() => undo(written)}
          onRedo={() =>
            void run(async () => {
              await redoImport(undoTokens ?? []);
              setUndoTokens(null);
            })
          }
        />
      )}

      <ExportSection project={project} />

      {choosing && (
        <FolderChooser
          title="Choose a notes folder or a zip"
          zips
          onPick={async (p) => {
            setNotesPath(p);
            setChoosing(false);
            return true;
          }}
          onClose={() => setChoosing(false)}
        />
      )}
    </section>
  );
}

/** Opens the panel from anywhere (the command palette). */
export function openPortability(): void {
  const s = useStore.getState();
  s.setScreen('vault');
  s.setPanel('portability');
}
