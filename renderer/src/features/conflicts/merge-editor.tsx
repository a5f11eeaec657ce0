import { useEffect, useRef } from 'react';
import './conflicts.css';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { markdown } from '@codemirror/lang-markdown';

/**
 * The control between the panes on each changed chunk: a real, named button. CodeMirror takes the chunk
 * on mousedown only, so Enter and Space are turned into that mousedown: the keyboard can take it too.
 */
function takeTheirsControl(): HTMLElement {
  const button = document.createElement('button');
  button.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    button.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
  });
  button.type = 'button';
  button.className = 'take-theirs';
  button.textContent = '←';
  button.title = 'Take their lines for this change';
  button.setAttribute('aria-label', 'Take their lines for this change');
  return button;
}

export interface MergeEditorProps {
  /** Another key recreates the view; the texts are only its starting point. */
  docKey: string;
  mine: string;
  theirs: string;
  onResult: (text: string) => void;
  labels?: { mine: string; theirs: string };
  className?: string;
  /** Fold long unchanged stretches so the changes fit on screen. */
  foldUnchanged?: boolean;
}

/**
 * Mine (editable: it becomes the result) beside theirs (read-only), with the changed chunks marked and a
 * control on each to take theirs; taking mine is leaving it. `onResult` receives every edit of the result.
 * One component for the team resolver, the vault's disk-change merge and the notes panel.
 */
export function MergeEditor({ docKey, mine, theirs, onResult, labels, className = 'merge-editor', foldUnchanged = false }: MergeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const callback = useRef(onResult);
  callback.current = onResult;
  const mineLabel = labels?.mine ?? 'My version (editable result)';
  const theirsLabel = labels?.theirs ?? 'Their version';

  useEffect(() => {
    const common = [lineNumbers(), markdown(), EditorView.lineWrapping];
    const view = new MergeView({
      parent: host.current!,
      a: {
        doc: mine,
        extensions: [
          ...common,
          EditorView.contentAttributes.of({ 'aria-label': mineLabel }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callback.current(u.state.doc.toString());
          }),
        ],
      },
      b: {
        doc: theirs,
        extensions: [...common, EditorState.readOnly.of(true), EditorView.contentAttributes.of({ 'aria-label': theirsLabel, 'aria-readonly': 'true' })],
      },
      revertControls: 'b-to-a',
      renderRevertControl: takeTheirsControl,
      highlightChanges: true,
      gutter: true,
      ...(foldUnchanged ? { collapseUnchanged: { margin: 3, minSize: 8 } } : {}),
    });
    return () => view.destroy();
    // Only another key recreates the view; the texts are its starting point.
  }, [docKey]);

  return <div className={`${className} merge-sides`} ref={host} />;
}
