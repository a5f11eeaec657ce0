import { useEffect, useRef, useState } from 'react';
import { EditorSelection, EditorState, StateField } from '@codemirror/state';
import { Decoration, EditorView, highlightActiveLine, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { markdown } from '@codemirror/lang-markdown';
import type { VaultFile } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { useStore } from '../../store';
import { kindInWords } from '../../bridge/secrets-actions';
import { useRuleKinds } from '../secrets/rule-kinds';

/** Marks one line (the scanner's finding) and keeps the mark on it while the user edits around it. */
function markLine(line: number) {
  return StateField.define<DecorationSet>({
    create: (state) => Decoration.set([Decoration.line({ class: 'cm-secret-line' }).range(state.doc.line(line).from)]),
    update: (marks, tr) => marks.map(tr.changes),
    provide: (field) => EditorView.decorations.from(field),
  });
}

/**
 * A file the secret scanner keeps on this machine, opened at the line the rule matched: the cursor is on
 * that line, scrolled into view and marked, so removing the secret is one edit and a save. The save
 * goes through the vault (with the hash it was read at), and the next push uploads the clean file.
 */
export function AtLineEditor({ path, line, rule, onClose }: { path: string; line: number; rule: string; onClose: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const [file, setFile] = useState<VaultFile | null>(null);
  const kinds = useRuleKinds();
  const text = useRef<string | null>(null);
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    let live = true;
    setFile(null);
    void api.invoke['vault:read-file']({ path }).then((r) => {
      if (!live) return;
      if (r.ok) setFile(r.value);
      else useStore.getState().showError(r.error);
    });
    return () => {
      live = false;
    };
  }, [path, line]);

  const save = async () => {
    if (!file || text.current === null) return;
    const saved = await api.invoke['vault:write-file']({ path, text: text.current, baseHash: file.hash });
    if (!saved.ok) {
      useStore.getState().showError(saved.error);
      return;
    }
    useStore.getState().showToast({ text: `Saved ${path}; it syncs once no secret is left in it.` });
    onClose();
  };
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => {
    if (!file || !host.current) return;
    text.current = file.text;
    setDirty(false);
    const at = Math.min(Math.max(1, line), EditorState.create({ doc: file.text }).doc.lines);
    const state = EditorState.create({
      doc: file.text,
      extensions: [
        lineNumbers(),
        highlightActiveLine(),
        history(),
        markdown(),
        EditorView.lineWrapping,
        markLine(at),
        EditorView.contentAttributes.of({ 'aria-label': `Text of ${path}, at line ${at}` }),
        keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (void saveRef.current(), true) }, ...defaultKeymap, ...historyKeymap]),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          text.current = u.state.doc.toString();
          setDirty(text.current !== file.text);
        }),
      ],
    });
    const start = state.doc.line(at).from;
    const view = new EditorView({ parent: host.current, state });
    view.dispatch({ selection: EditorSelection.cursor(start), effects: EditorView.scrollIntoView(start, { y: 'center' }) });
    view.focus();
    return () => view.destroy();
  }, [file, line, path]);

  return (
    <div className="at-line" role="group" aria-label={`${path} at line ${line}`}>
      <p className="muted small">
        What looks like {kindInWords(kinds, rule)} is on line {line} (marked). Remove the secret, then save; the value is never sent or shown elsewhere.
      </p>
      {file ? <div className="at-line-editor" ref={host} /> : <p className="muted small">Opening…</p>}
      <div className="row end">
        <button type="button" className="button ghost" onClick={onClose}>
          Close
        </button>
        <button type="button" className="button primary" disabled={!dirty} onClick={() => void save()}>
          Save
        </button>
      </div>
    </div>
  );
}
