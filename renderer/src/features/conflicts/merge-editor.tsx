import { useEffect, useRef } from 'react';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { markdown } from '@codemirror/lang-markdown';

/**
 * Mine (editable: it becomes the result) beside theirs (read-only), with the changed chunks marked
 * and a control on each to take theirs. `onResult` receives the edited text.
 */
export function MergeEditor({ docKey, mine, theirs, onResult }: { docKey: string; mine: string; theirs: string; onResult: (text: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const callback = useRef(onResult);
  callback.current = onResult;

  useEffect(() => {
    const common = [lineNumbers(), markdown(), EditorView.lineWrapping];
    const view = new MergeView({
      parent: host.current!,
      a: {
        doc: mine,
        extensions: [
          ...common,
          EditorView.contentAttributes.of({ 'aria-label': 'My version (editable result)' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callback.current(u.state.doc.toString());
          }),
        ],
      },
      b: {
        doc: theirs,
        extensions: [...common, EditorState.readOnly.of(true), EditorView.contentAttributes.of({ 'aria-label': 'Their version' })],
      },
      revertControls: 'b-to-a',
      highlightChanges: true,
      gutter: true,
    });
    return () => view.destroy();
    // Only another conflict recreates the view; the texts are its starting point.
  }, [docKey]);

  return <div className="merge-editor" ref={host} />;
}
