import { useEffect, useRef } from 'react';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';

/**
 * Two versions of a text side by side, read-only, with the changed lines and words marked and the
 * unchanged stretches collapsed (the permission dialog; meant for the vault's history too).
 */
export function SideBySideDiff({ before, after, beforeLabel = 'Before', afterLabel = 'After' }: { before: string; after: string; beforeLabel?: string; afterLabel?: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const side = (label: string) => [lineNumbers(), EditorView.lineWrapping, EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.contentAttributes.of({ 'aria-label': label })];
    const view = new MergeView({
      parent: host.current!,
      a: { doc: before, extensions: side(beforeLabel) },
      b: { doc: after, extensions: side(afterLabel) },
      highlightChanges: true,
      gutter: true,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
  }, [before, after, beforeLabel, afterLabel]);
  return (
    <div className="side-by-side-diff">
      <div className="side-by-side-labels" aria-hidden="true">
        <span>{beforeLabel}</span>
        <span>{afterLabel}</span>
      </div>
      <div ref={host} />
    </div>
  );
}
