import { RangeSetBuilder } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { instructionLines } from './notes-sections';

const placeholder = Decoration.line({ class: 'cm-notes-instruction' });

function build(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const lines = instructionLines(view.state.doc.toString());
  for (const number of [...lines].sort((a, b) => a - b)) {
    if (number <= view.state.doc.lines) builder.add(view.state.doc.line(number).from, view.state.doc.line(number).from, placeholder);
  }
  return builder.finish();
}

/**
 * In the notes editor the template's instruction lines look like placeholders (faint), so the eye goes
 * to the notes; they stay in the text, as the background updater expects them there.
 */
export const notesPlaceholders = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = build(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = build(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
