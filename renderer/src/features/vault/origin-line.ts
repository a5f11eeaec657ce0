import { StateField, type EditorState } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';
import { originLineRange } from '../../../../common/memory-file/provenance';

/** What stands in for the raw `originSessionId: <uuid>` line: words, the link itself is beside the file. */
class OriginWidget extends WidgetType {
  toDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = 'cm-origin-line';
    span.textContent = 'Written in a conversation (linked with this memory)';
    return span;
  }

  override eq(): boolean {
    return true;
  }
}

function decorations(state: EditorState): DecorationSet {
  const text = state.doc.toString();
  const at = originLineRange(text);
  if (!at) return Decoration.none;
  const line = state.doc.lineAt(text.indexOf('originSessionId:', at[0]));
  return Decoration.set([Decoration.replace({ widget: new OriginWidget() }).range(line.from, line.to)]);
}

const originLine = StateField.define<DecorationSet>({
  create: decorations,
  update: (set, tr) => (tr.docChanged ? decorations(tr.state) : set),
  // Atomic: the cursor steps over the line, so the id is never edited by accident; it stays in the file.
  provide: (field) => [EditorView.decorations.from(field), EditorView.atomicRanges.of((view) => view.state.field(field))],
});

/**
 * A memory's `originSessionId` frontmatter line, shown in words in the editor (docs/memory.md#provenance-and-use):
 * the file keeps it for Claude Code, the user reads no uuid.
 */
export const ORIGIN_LINE_EXTENSIONS = [originLine];
