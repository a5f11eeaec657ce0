import { useState } from 'react';
import type { VaultFile } from '../../../../common/domain/vault';
import { useStoreShallow, useStore } from '../../store';
import { deleteFile, renameFile, resolveExternal, saveOpenFile } from '../../bridge/vault-actions';
import { Markdown } from '../chat/markdown';
import { CodeEditor } from './code-editor';
import { useDisplayPath } from './project-label';
import { MergeEditor } from '../conflicts/merge-editor';
import { FrontmatterForm, readFrontmatter, stripFrontmatter, validateFrontmatter, withFrontmatter } from './frontmatter-form';

const isMemory = (file: VaultFile) =>
  (file.meta.scope === 'project-memory' || file.meta.scope === 'team-memory') && !file.meta.path.endsWith('/MEMORY.md');

/**
 * The file changed on disk while the user had unsaved edits: their edits (editable) beside the version
 * on disk, changes marked, each change takeable from the disk side; then keep the result or take theirs.
 */
function ExternalChange({ theirs, mine }: { theirs: VaultFile; mine: string }) {
  return (
    <div className="banner warning external-change" role="alert">
      <p>
        <strong>This file changed on disk while you were editing it.</strong> Your edits are on the left, the version on disk on the
        right. Take changes from the right if you want them, then choose.
      </p>
      <MergeEditor docKey={theirs.hash} mine={mine} theirs={theirs.text} onResult={(text) => useStore.getState().setDraft(text)} />
      <div className="row">
        <button type="button" className="button secondary" onClick={() => void resolveExternal('theirs')}>
          Use the version on disk
        </button>
        <button type="button" className="button primary" onClick={() => void resolveExternal('mine')}>
          Save my version
        </button>
      </div>
    </div>
  );
}

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

/** One vault file: preview or edit (with the memory form), save, rename, delete, history. */
export function FilePane() {
  const { file, draft, external } = useStoreShallow((s) => ({ file: s.open, draft: s.draft, external: s.externalVersion }));
  const [mode, setMode] = useState<'preview' | 'edit'>('preview');
  const [renaming, setRenaming] = useState(false);
  const [editorKey, setEditorKey] = useState(0);
  const shown = useDisplayPath();
  if (!file) return <p className="muted">Opening…</p>;
  const { meta } = file;
  const text = draft ?? file.text;
  const dirty = draft !== null && draft !== file.text;
  const memory = isMemory(file);
  const fields = memory ? readFrontmatter(text) : null;
  const invalid = memory && fields ? Object.keys(validateFrontmatter(fields)).length > 0 : false;
  const s = useStore.getState();

  if (meta.binary || meta.tooLarge) {
    return (
      <section className="file-pane" aria-labelledby="file-title">
        <h1 id="file-title">{meta.title}</h1>
        <p className="notice">
          {meta.tooLarge
            ? `This file is ${(meta.size / 1_000_000).toFixed(1)} MB — too large to open here. It is listed, and nothing in it was changed.`
            : 'This file is not text, so it is listed but not opened.'}
        </p>
      </section>
    );
  }

  return (
    <section className="file-pane" aria-labelledby="file-title">
      <header className="file-header">
        <div>
          <h1 id="file-title">
            {meta.title}
            {dirty && <span className="dirty" aria-label="unsaved changes"> •</span>}
          </h1>
          <p className="muted small">
            {shown(meta.path)}
            {meta.description ? ` — ${meta.description}` : ''}
          </p>
        </div>
        <div className="row">
          <button type="button" className="button ghost" aria-pressed={mode === 'edit'} onClick={() => setMode(mode === 'edit' ? 'preview' : 'edit')}>
            {mode === 'edit' ? 'Preview' : 'Edit'}
          </button>
          {mode === 'edit' && !external && (
            <button type="button" className="button primary" disabled={!dirty || invalid} onClick={() => void saveOpenFile()}>
              Save
            </button>
          )}
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
          <button type="button" className="button ghost danger" onClick={() => void deleteFile(meta.path)}>
            Delete
          </button>
        </div>
      </header>
      {renaming && <RenameForm file={file} onDone={() => setRenaming(false)} />}
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
                s.setDraft(withFrontmatter(text, next));
                setEditorKey((k) => k + 1);
              }}
            />
          )}
          <CodeEditor
            docKey={`${meta.path}:${file.hash}:${editorKey}`}
            value={text}
            label={`Text of ${meta.title}`}
            onChange={(next) => s.setDraft(next)}
            onSave={() => void saveOpenFile()}
          />
        </>
      ) : (
        <div className="preview">
          <Markdown text={stripFrontmatter(text)} />
        </div>
      )}
    </section>
  );
}
