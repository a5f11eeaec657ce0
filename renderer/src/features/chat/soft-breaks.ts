/** The parts of an mdast node this plugin reads: its type, a text's value, a parent's children. */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * A remark plugin: each single line ending inside running text becomes a line break, as notes apps show
 * what a person typed on two lines (CommonMark joins them into one line). Only `text` nodes are split, so
 * code blocks, inline code and raw HTML keep their line endings, and lists, headings and tables, which
 * are separate nodes already, are unchanged.
 */
export function remarkSoftBreaks() {
  return (tree: MdNode) => splitLines(tree);
}

function splitLines(node: MdNode): void {
  if (!node.children) return;
  node.children = node.children.flatMap((child) => {
    if (child.type !== 'text' || !child.value!.includes('\n')) {
      splitLines(child);
      return [child];
    }
    return child.value!.split(/\r?\n|\r/).flatMap((line, i) => [
      ...(i > 0 ? [{ type: 'break' }] : []),
      ...(line ? [{ type: 'text', value: line }] : []),
    ]);
  });
}
