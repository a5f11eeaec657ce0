/**
 * One regex source for a set of literal keywords, factored as a trie (`a(?:ccountkey=|ge-secret-key-1)`):
 * the engine then tries one branch per character instead of every keyword at every position, which keeps
 * the prefilter's cost flat as the rules grow. Longer keywords win at a position (greedy branches first).
 */

interface Node {
  end: boolean;
  next: Map<string, Node>;
}

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function source(node: Node): string {
  const branches = [...node.next.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, child]) => escape(c) + source(child));
  if (branches.length === 0) return '';
  const group = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
  // A keyword ends here and longer ones continue: the continuation is optional but tried first.
  return node.end ? `(?:${group})?` : group;
}

/** The pattern for the keywords, lower-cased (match it with the `i` flag). */
export function triePattern(keywords: readonly string[]): string {
  const root: Node = { end: false, next: new Map() };
  for (const word of keywords) {
    let node = root;
    for (const c of word.toLowerCase()) {
      let child = node.next.get(c);
      if (!child) node.next.set(c, (child = { end: false, next: new Map() }));
      node = child;
    }
    node.end = true;
  }
  return source(root);
}
