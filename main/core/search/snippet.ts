import { splitFrontmatter } from '../../../common/memory-file/index.js';
import { wordSpans } from './tokenize.js';

/** Where a hit is in its text: the best line (0-based), a short snippet and its highlight ranges. */
export interface BestLine {
  index: number;
  snippet: string;
  ranges: [number, number][];
}

const SNIPPET_CHARS = 160;

/** The search's own rule for a query term: does the indexed word `word` (lower case) match `term`? */
export type TermMatch = (word: string, term: string) => boolean;

/**
 * Picks the line whose words match the most distinct query terms (the first such line), then cuts a
 * snippet around its first match and highlights each matching word whole. Lines are split into words
 * by the index's own tokenizer and compared in lower case as the index compares them, so a snippet
 * shows exactly the words the search matched; this is a scan over the words, where a Unicode pattern
 * per hit cost as much as the search itself (docs/memory.md#vault-upkeep `vault-ui-search`).
 */
export function bestLine(text: string, terms: string[], matches: TermMatch): BestLine {
  const wanted = [...new Set(terms.map((t) => t.toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return { index: 0, snippet: text.slice(0, SNIPPET_CHARS), ranges: [] };
  const hitsOf = (line: string): { spans: [number, number][]; count: number } => {
    const covered = new Set<string>();
    const spans: [number, number][] = [];
    for (const span of wordSpans(line)) {
      const word = line.slice(span[0], span[1]).toLowerCase();
      let hit = false;
      for (const term of wanted) {
        if (matches(word, term)) {
          covered.add(term);
          hit = true;
        }
      }
      if (hit) spans.push(span);
    }
    return { spans, count: covered.size };
  };
  const lines = text.split('\n');
  // The result's title and description already show the frontmatter: a body line with as many terms wins.
  const bodyStart = (splitFrontmatter(text)?.bodyLine ?? 1) - 1;
  let best = { index: 0, count: 0, body: false, spans: [] as [number, number][] };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.length === 0) continue;
    const { spans, count } = hitsOf(lines[i]!);
    const body = i >= bodyStart;
    if (count > best.count || (count === best.count && count > 0 && body && !best.body)) {
      best = { index: i, count, body, spans };
      if (count === wanted.length && body) break;
    }
  }
  const line = lines[best.index] ?? '';
  const first = best.spans[0];
  let start = 0;
  if (first && line.length > SNIPPET_CHARS) start = Math.max(0, Math.min(first[0] - 40, line.length - SNIPPET_CHARS));
  const end = start + SNIPPET_CHARS;
  const raw = line.slice(start, end);
  const lead = start > 0 ? '…' : '';
  const shown = raw.trim() === raw ? raw : raw.trimEnd();
  const snippet = `${lead}${shown}${end < line.length ? '…' : ''}`;
  const shift = lead.length - start;
  const ranges: [number, number][] = best.spans
    .filter(([from, to]) => from >= start && to <= start + shown.length)
    .map(([from, to]) => [from + shift, to + shift]);
  return { index: best.index, snippet, ranges };
}
