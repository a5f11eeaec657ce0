import { useEffect, useRef } from 'react';
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

/**
 * Yours (editable: it becomes the result) beside theirs (read-only). Changed lines are marked on both
 * sides and each change has a control to take theirs; taking yours is leaving it. Long unchanged
 * stretches fold so the changes fit on screen. `onResult` receives every edit of the result.
 */
export function ResolverMerge({ docKey, mine, theirs, onResult }: { docKey: string; mine: string; theirs: string; onResult: (text: string) => void }) {
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
          EditorView.contentAttributes.of({ 'aria-label': 'Your version (the result, editable)' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callback.current(u.state.doc.toString());
          }),
        ],
      },
      b: {
        doc: theirs,
        extensions: [
          ...common,
          EditorState.readOnly.of(true),
          EditorView.contentAttributes.of({ 'aria-label': 'Their version', 'aria-readonly': 'true' }),
        ],
      },
      revertControls: 'b-to-a',
      renderRevertControl: takeTheirsControl,
      highlightChanges: true,
      gutter: true,
      collapseUnchanged: { margin: 3, minSize: 8 },
    });
    return () => view.destroy();
    // Only another conflict recreates the view; the texts are its starting point.
  }, [docKey]);

  return <div className="resolver-merge" ref={host} />;
}
