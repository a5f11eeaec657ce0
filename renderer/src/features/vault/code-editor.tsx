import { useEffect, useRef } from 'react';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdownEditing } from './editor-markdown';

/**
 * CodeMirror 6 over a markdown document. The editor owns its text while mounted; `value` is read only
 * when `docKey` changes (another file, or a reload after an external change).
 */
export function CodeEditor({
  docKey,
  value,
  onChange,
  onSave,
  label,
  extensions = [],
}: {
  docKey: string;
  value: string;
  onChange: (text: string) => void;
  onSave: () => void;
  label: string;
  /** More CodeMirror extensions (the session notes' placeholder lines), read with `docKey` like `value`. */
  extensions?: Extension[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onSave });
  callbacks.current = { onChange, onSave };

  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          markdownEditing(),
          ...extensions,
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          keymap.of([
            { key: 'Mod-s', preventDefault: true, run: () => (callbacks.current.onSave(), true) },
            indentWithTab,
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => view.destroy();
    // Recreate only for another document; typing must not reset the editor.
  }, [docKey]);

  return <div className="code-editor" ref={host} />;
}
