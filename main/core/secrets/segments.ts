/**
 * Line-aligned segments for scanning long text piecewise: each segment after the first starts a few
 * lines before the previous one ended, so a multi-line match (a PEM header and its body) cut by a
 * boundary is still seen whole in the next segment. Findings from the overlap repeat and are deduplicated
 * by rule, line and column (segments start at line starts, so columns agree).
 */

// A private-key match spans its header plus at most 12 header or blank lines before the body.
const overlapLines = 16;
const overlapChars = 64 * 1024;

/** Number of newlines in `text` before `end`. */
export function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Where the next segment starts: the start of the line `overlapLines` lines before `cut` (a line
 * start), never at or before `floor` so every segment makes progress.
 */
export function overlapStart(text: string, cut: number, floor = -1): number {
  let start = cut;
  for (let i = 0; i < overlapLines && start > 0; i++) {
    const prev = text.lastIndexOf('\n', start - 2);
    if (prev === -1 || cut - prev > overlapChars || prev + 1 <= floor) break;
    start = prev + 1;
  }
  return start;
}

/** The end of a segment that starts at `start`: the first line end at or after `start + size`. */
export function segmentEnd(text: string, start: number, size: number): number {
  if (start + size >= text.length) return text.length;
  const nl = text.indexOf('\n', start + size);
  return nl === -1 ? text.length : nl + 1;
}
