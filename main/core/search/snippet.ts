import { splitFrontmatter } from '../../../common/memory-file/index.js';
import { eachTermSpan } from './analyzer.js';

/** Where a hit is in its text: the best line (0-based), a short snippet and its highlight ranges. */
export interface BestLine {
  index: number;
  snippet: string;
  ranges: [number, number][];
}

const SNIPPET_CHARS = 160;

/** The terms a search used, each with the typed words (groups) it stands for. */
export type MatchedTerms = ReadonlyMap<string, readonly number[]>;

/** The spans of `line` whose terms the search used (overlapping bigrams merged), and how many typed words they cover. */
function hitsOf(line: string, terms: MatchedTerms): { spans: [number, number][]; count: number } {
  const covered = new Set<number>();
  const spans: [number, number][] = [];
  eachTermSpan(line, (term, start, end) => {
    const groups = terms.get(term);
    if (!groups) return;
    for (const g of groups) covered.add(g);
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  });
  return { spans, count: covered.size };
}

/**
 * Picks the line whose words match the most typed words (the first such line), then cuts a snippet around
 * its first match and highlights each matching word whole. Lines are read by the index's own analyzer
 * (analyzer.ts `eachTermSpan`), so a snippet shows exactly the words the search matched: `paints` for
 * `painting`, `café` for `cafe`.
 */
export function bestLine(text: string, terms: MatchedTerms, groups: number): BestLine {
  if (groups === 0 || terms.size === 0) return { index: 0, snippet: text.slice(0, SNIPPET_CHARS), ranges: [] };
  const lines = text.split('\n');
  // The result's title and description already show the frontmatter: a body line with as many terms wins.
  const bodyStart = (splitFrontmatter(text)?.bodyLine ?? 1) - 1;
  let best = { index: 0, count: 0, body: false, spans: [] as [number, number][] };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.length === 0) continue;
    const { spans, count } = hitsOf(lines[i]!, terms);
    const body = i >= bodyStart;
    if (count > best.count || (count === best.count && count > 0 && body && !best.body)) {
      best = { index: i, count, body, spans };
      if (count === groups && body) break;
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
