import { useEffect, useRef } from 'react';
import { Annotation, EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { markdownEditing } from './editor-markdown';

/** Marks the transactions that bring in text from outside, so they are not reported as the user's typing. */
const fromOutside = Annotation.define<boolean>();

/**
 * The smallest replacement turning `from` into `to` (common start and end kept), so the cursor and
 * selection around an untouched part stay where they were.
 */
export function minimalChange(from: string, to: string): { from: number; to: number; insert: string } {
  let start = 0;
  while (start < from.length && start < to.length && from[start] === to[start]) start++;
  let end = 0;
  while (end < from.length - start && end < to.length - start && from[from.length - 1 - end] === to[to.length - 1 - end]) end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

/**
 * CodeMirror 6 over a markdown document. The editor owns its text while mounted; `docKey` (another
 * file) recreates it; `syncKey` brings `value` in as a change (a merge with a change on disk, a
 * reload): the focus, the cursor and the undo history stay, so typing goes on undisturbed.
 */
export function CodeEditor({
  docKey,
  syncKey = '',
  value,
  onChange,
  onSave,
  label,
  extensions = [],
}: {
  docKey: string;
  syncKey?: string;
  value: string;
  onChange: (text: string) => void;
  onSave: () => void;
  label: string;
  /** More CodeMirror extensions (the session notes' placeholder lines), read with `docKey` like `value`. */
  extensions?: Extension[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const callbacks = useRef({ onChange, onSave });
  callbacks.current = { onChange, onSave };

  useEffect(() => {
    const editor = new EditorView({
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
            if (update.docChanged && !update.transactions.some((t) => t.annotation(fromOutside))) {
              callbacks.current.onChange(update.state.doc.toString());
            }
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      view.current = null;
      editor.destroy();
    };
    // Recreate only for another document; typing must not reset the editor.
  }, [docKey]);

  useEffect(() => {
    const editor = view.current;
    const current = editor?.state.doc.toString();
    if (!editor || current === undefined || current === value) return;
    editor.dispatch({ changes: minimalChange(current, value), annotations: fromOutside.of(true) });
    // Only a new outside version is brought in; `value` also follows every keystroke.
  }, [syncKey]);

  return <div className="code-editor" ref={host} />;
}
