import { useState } from 'react';
import type { VaultFile } from '../../../../common/domain/vault';
import { useStoreShallow, useStore } from '../../store';
import { deleteFile, renameFile } from '../../bridge/vault-actions';
import { editDraft, saveNow } from '../../bridge/vault-autosave';
import { Markdown } from '../chat/markdown';
import { CodeEditor } from './code-editor';
import { CopyPathButton } from './copy-path';
import { ExternalChange, SaveStatus } from './save-status';
import { readableNotes } from './notes-sections';
import { notesPlaceholders } from './notes-placeholders';
import { ORIGIN_LINE_EXTENSIONS } from './origin-line';
import { humanTitle } from './tree-rows';
import { useSessionTitles } from './file-name';
import { LinkedMemoryPreview, OriginConversation } from './memory-links';
import { MemoryUseSummary } from './memory-use';
import { ConflictBanner } from '../conflicts/conflict-banner';

/** Session notes preview as notes (written sections only), a memory with its links, anything else as its markdown. */
function Preview({ file, text }: { file: VaultFile; text: string }) {
  if (isMemory(file)) return <LinkedMemoryPreview file={file} text={text} />;
  if (file.meta.scope !== 'session-notes') return <Markdown text={stripFrontmatter(text)} breaks />;
  const notes = readableNotes(text);
  return (
    <>
      {notes.markdown ? <Markdown text={notes.markdown} breaks /> : <p className="muted">Nothing written yet.</p>}
      {notes.empty.length > 0 && <p className="muted small notes-empty">Not written yet: {notes.empty.join(', ')}.</p>}
    </>
  );
}

const NOTES_EXTENSIONS = [notesPlaceholders];
import { FrontmatterForm, readFrontmatter, stripFrontmatter, withFrontmatter } from './frontmatter-form';

const isMemory = (file: VaultFile) =>
  (file.meta.scope === 'project-memory' || file.meta.scope === 'team-memory') && !file.meta.path.endsWith('/MEMORY.md');

function RenameForm({ file, onDone }: { file: VaultFile; onDone: () => void }) {
  const [name, setName] = useState(file.meta.path.split('/').pop() ?? '');
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        void renameFile(file.meta.path, name.trim()).then(onDone);
      }}
    >
      <label className="sr-only" htmlFor="rename-file">
        New file name
      </label>
      <input id="rename-file" className="input grow" autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit" className="button primary" disabled={!/^[A-Za-z0-9][A-Za-z0-9._-]*\.md$/.test(name.trim())}>
        Rename
      </button>
      <button type="button" className="button ghost" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

/** Ctrl+S (Cmd+S) anywhere in the file view — the editor, the name or description field — saves now. */
function saveOnModS(event: React.KeyboardEvent): void {
  if ((event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 's') {
    event.preventDefault();
    void saveNow();
  }
}

/** One vault file: preview or edit (with the memory form), saved by itself; rename, delete, history. */
export function FilePane() {
  const { file, draft, external, revision } = useStoreShallow((s) => ({
    file: s.open,
    draft: s.draft,
    external: s.externalVersion,
    revision: s.docRevision,
  }));
  const sessionTitles = useSessionTitles();
  const memoryShape = useStore((st) => st.settings?.memoryShape) ?? '2.1.88';
  const [mode, setMode] = useState<'preview' | 'edit'>('preview');
  const [renaming, setRenaming] = useState(false);
  const [editorKey, setEditorKey] = useState(0);
  if (!file) return <p className="muted">Opening…</p>;
  const { meta } = file;
  const text = draft ?? file.text;
  const dirty = draft !== null && draft !== file.text;
  const memory = isMemory(file);
  const fields = memory ? readFrontmatter(text) : null;
  const s = useStore.getState();
  // Session notes go by their own Session Title, else their conversation's, never by an id.
  const title =
    meta.scope === 'session-notes'
      ? (readableNotes(text).title ?? humanTitle(meta, sessionTitles))
      : meta.title;

  if (meta.binary || meta.tooLarge) {
    return (
      <section className="file-pane" aria-labelledby="file-title">
        <h1 id="file-title">{title}</h1>
        <p className="notice">
          {meta.tooLarge
            ? `This file is ${(meta.size / 1_000_000).toFixed(1)} MB — too large to open here. It is listed, and nothing in it was changed.`
            : 'This file is not text, so it is listed but not opened.'}
        </p>
      </section>
    );
  }

  return (
    <section className="file-pane" aria-labelledby="file-title" onKeyDown={saveOnModS}>
      <header className="file-header">
        <div>
          <h1 id="file-title">
            {title}
            {dirty && <span className="dirty" aria-label="unsaved changes"> •</span>}
          </h1>
          {meta.description && <p className="muted small">{meta.description}</p>}
          {memory && <OriginConversation file={file} />}
          {memory && <MemoryUseSummary meta={meta} />}
        </div>
        <div className="row">
          <SaveStatus />
          <button type="button" className="button ghost" aria-pressed={mode === 'edit'} onClick={() => setMode(mode === 'edit' ? 'preview' : 'edit')}>
            {mode === 'edit' ? 'Preview' : 'Edit'}
          </button>
          {meta.path.endsWith('/MEMORY.md') && meta.projectSlug && (
            <button
              type="button"
              className="button ghost"
              onClick={() => {
                s.setIndexTarget({ projectSlug: meta.projectSlug!, team: meta.scope === 'team-memory' });
                s.setPanel('index');
              }}
            >
              Check the index
            </button>
          )}
          <button type="button" className="button ghost" onClick={() => s.setPanel('history')}>
            History
          </button>
          <button type="button" className="button ghost" onClick={() => setRenaming(true)}>
            Rename
          </button>
          <CopyPathButton path={meta.path} />
          <button type="button" className="button ghost danger" onClick={() => void deleteFile(meta.path)}>
            Delete
          </button>
        </div>
      </header>
      {renaming && <RenameForm file={file} onDone={() => setRenaming(false)} />}
      <ConflictBanner meta={meta} />
      {external && <ExternalChange theirs={external} mine={text} />}
      {(meta.error || file.frontmatterError) && (
        <p className="banner error" role="note">
          {file.frontmatterError ? `The frontmatter does not parse: ${file.frontmatterError}. Fix it in the raw text below.` : meta.error}
        </p>
      )}
      {external ? null : mode === 'edit' ? (
        <>
          {memory && fields && (
            <FrontmatterForm
              value={fields}
              onChange={(next) => {
                editDraft(withFrontmatter(text, next, memoryShape));
                setEditorKey((k) => k + 1);
              }}
            />
          )}
          <CodeEditor
            docKey={meta.path}
            syncKey={`${revision}:${editorKey}`}
            value={text}
            label={`Text of ${title}`}
            extensions={meta.scope === 'session-notes' ? NOTES_EXTENSIONS : memory ? ORIGIN_LINE_EXTENSIONS : undefined}
            onChange={editDraft}
            onSave={() => void saveNow()}
          />
        </>
      ) : (
        <div className="preview">
          <Preview file={file} text={text} />
        </div>
      )}
    </section>
  );
}
