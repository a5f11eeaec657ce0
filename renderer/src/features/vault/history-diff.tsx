import { useEffect, useRef } from 'react';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { markdown } from '@codemirror/lang-markdown';

/**
 * A kept version beside the file as it is now, both read-only, changed lines marked and wrapped
 * (no sideways scrolling, so it fits a 1024 px window).
 */
export function HistoryDiff({ then, now }: { then: string; now: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const side = (label: string) => [
      markdown(),
      EditorView.lineWrapping,
      EditorState.readOnly.of(true),
      EditorView.editable.of(false),
      EditorView.contentAttributes.of({ 'aria-label': label }),
    ];
    const view = new MergeView({
      parent: host.current!,
      a: { doc: then, extensions: side('This version') },
      b: { doc: now, extensions: side('Now') },
      highlightChanges: true,
      gutter: true,
      collapseUnchanged: { margin: 3, minSize: 8 },
    });
    return () => view.destroy();
  }, [then, now]);
  return (
    <div className="history-diff">
      <div className="history-diff-labels" aria-hidden="true">
        <span>This version</span>
        <span>Now</span>
      </div>
      <div className="merge-editor" ref={host} />
    </div>
  );
}
