import { useEffect, useRef } from 'react';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { markdown } from '@codemirror/lang-markdown';

/** A read-only CodeMirror pane: the base of the three-way view (the last version both sides agreed on). */
export function ReadOnlyPane({ docKey, text, label, className }: { docKey: string; text: string; label: string; className: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          markdown(),
          EditorView.lineWrapping,
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-readonly': 'true' }),
        ],
      }),
    });
    return () => view.destroy();
    // Only another conflict recreates the view.
  }, [docKey]);
  return <div className={className} ref={host} />;
}
