import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { tags as t } from '@lezer/highlight';

type MarkdownExtension = NonNullable<NonNullable<Parameters<typeof markdown>[0]>['extensions']>;
type MarkdownConfig = Exclude<MarkdownExtension, readonly unknown[]>;

const FENCE = /^---\s*$/;

/**
 * The `---` … `---` block at the top of a memory is YAML frontmatter: one muted Frontmatter node,
 * not a horizontal rule followed by a setext heading (which drew the fields bold and underlined).
 */
export const frontmatter: MarkdownConfig = {
  defineNodes: [{ name: 'Frontmatter', block: true, style: t.meta }],
  parseBlock: [
    {
      name: 'Frontmatter',
      before: 'HorizontalRule',
      parse(cx, line) {
        if (cx.lineStart !== 0 || !FENCE.test(line.text)) return false;
        let closed = false;
        while (cx.nextLine()) {
          if (FENCE.test(line.text)) {
            closed = true;
            break;
          }
        }
        if (closed) cx.nextLine();
        cx.addElement(cx.elt('Frontmatter', 0, cx.prevLineEnd()));
        return true;
      },
    },
  ],
};

/** Colours from the app's CSS variables, so the editor follows the light and dark themes. */
const markdownHighlight = HighlightStyle.define([
  { tag: t.heading, fontWeight: '700' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: t.link, color: 'var(--accent)', textDecoration: 'underline' },
  { tag: t.url, color: 'var(--accent)' },
  { tag: [t.meta, t.processingInstruction, t.contentSeparator, t.comment, t.quote], color: 'var(--fg-muted)' },
]);

/** Markdown with frontmatter, highlighted in the theme's colours: the vault's editor language. */
export function markdownEditing(): Extension {
  return [markdown({ extensions: [frontmatter] }), syntaxHighlighting(markdownHighlight)];
}
