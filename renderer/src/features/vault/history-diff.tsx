import { useEffect, useRef } from 'react';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { markdown } from '@codemirror/lang-markdown';
import { withoutOriginLine } from '../../../../common/memory-file/provenance';

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
      // The conversation a memory came from is linked beside it, never shown as its raw id.
      a: { doc: withoutOriginLine(then), extensions: side('This version') },
      b: { doc: withoutOriginLine(now), extensions: side('Now') },
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
