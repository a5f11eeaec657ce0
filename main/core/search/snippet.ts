import { splitFrontmatter } from '../../../common/memory-file/index.js';

/** Where a hit is in its text: the best line (0-based), a short snippet and its highlight ranges. */
export interface BestLine {
  index: number;
  snippet: string;
  ranges: [number, number][];
}

const SNIPPET_CHARS = 160;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Compiled patterns by word list: the hits of one search mostly share their terms, and compiling a
 * Unicode pattern per hit was most of a search's time (docs/memory.md#vault-upkeep `vault-search`).
 */
const patterns = new Map<string, RegExp>();
const PATTERN_CACHE = 256;

function patternFor(words: string[]): RegExp {
  const key = words.join('\n');
  let pattern = patterns.get(key);
  if (!pattern) {
    if (patterns.size >= PATTERN_CACHE) patterns.clear();
    pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})`, 'giu');
    patterns.set(key, pattern);
  }
  return pattern;
}

/**
 * Picks the line matching the most distinct terms (the first such line), then cuts a snippet around
 * its first match. `terms` are the document terms MiniSearch matched (prefix expansions included);
 * `queryTerms` the terms as typed, used when a term's form in the text differs only by case.
 */
export function bestLine(text: string, terms: string[], queryTerms: string[]): BestLine {
  const words = [...new Set([...terms, ...queryTerms].map((t) => t.toLowerCase()).filter(Boolean))].sort(
    (a, b) => b.length - a.length,
  );
  if (words.length === 0) return { index: 0, snippet: text.slice(0, SNIPPET_CHARS), ranges: [] };
  const pattern = patternFor(words);
  const lines = text.split('\n');
  // The result's title and description already show the frontmatter: a body line with as many terms wins.
  const bodyStart = (splitFrontmatter(text)?.bodyLine ?? 1) - 1;
  let best = { index: 0, count: 0, body: false };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length === 0) continue;
    pattern.lastIndex = 0;
    const seen = new Set<string>();
    for (let m = pattern.exec(line); m; m = pattern.exec(line)) seen.add(m[0].toLowerCase());
    const body = i >= bodyStart;
    if (seen.size > best.count || (seen.size === best.count && seen.size > 0 && body && !best.body)) {
      best = { index: i, count: seen.size, body };
      if (seen.size === words.length && body) break;
    }
  }
  const line = lines[best.index] ?? '';
  pattern.lastIndex = 0;
  const first = pattern.exec(line);
  let start = 0;
  if (first && line.length > SNIPPET_CHARS) start = Math.max(0, Math.min(first.index - 40, line.length - SNIPPET_CHARS));
  const raw = line.slice(start, start + SNIPPET_CHARS);
  const lead = start > 0 ? '…' : '';
  const snippet = `${lead}${raw.trim() === raw ? raw : raw.trimEnd()}${start + SNIPPET_CHARS < line.length ? '…' : ''}`;
  const ranges: [number, number][] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(snippet); m; m = pattern.exec(snippet)) ranges.push([m.index, m.index + m[0].length]);
  return { index: best.index, snippet, ranges };
}
