import type { RecallPick, RecallResult } from './memory-recall.js';

/**
 * Recall's reasons in words a person reads (docs/memory.md#recall "Why this memory"): `strata recall
 * --explain` prints them and the chat's recalled-memory chip shows the same line on click.
 */

const list = (words: readonly string[]) => words.map((w) => `“${w}”`).join(', ');

/** One line: who picked the memory and what in it matched the question. */
export function whyLine(pick: RecallPick): string {
  const parts: string[] = [];
  parts.push(pick.pickedBy === 'model' ? 'picked by the model' : 'ranked by its words');
  if (pick.listedAsNew) parts.push('listed for being among the newest');
  const why = pick.why;
  if (why && pick.localRank !== null) {
    parts.push(`#${pick.localRank} in the local ranking`);
    if (why.words.length) parts.push(`has ${list(why.words)}`);
    if (why.names.length) parts.push(`names ${list(why.names)}`);
    if (why.phrases.length) parts.push(`has ${list(why.phrases)} side by side`);
    if (why.related.length) parts.push(`shares ${list(why.related.slice(0, 4))} with the best matches`);
    if (why.together > 0) parts.push('written in the same conversation as a strong match');
    if (why.newer) parts.push('newer than a near-equal match');
  } else if (pick.localRank === null) {
    parts.push('holds none of the question’s words');
  }
  return parts.join(' · ');
}

/** The whole explanation as lines: the method, then what was skipped and why. */
export function explainLines(result: RecallResult): string[] {
  const e = result.explain;
  const lines: string[] = [];
  const how =
    result.method === 'model'
      ? `the model chose from ${e.shortlist!.files} of ${e.files} memories (${e.shortlist!.tokens} tokens of prompt)`
      : result.method === 'local'
        ? `the local ranking answered (${e.localBecause ?? 'no model'}), over ${e.files} memories`
        : `nothing recalled: ${e.nothingBecause ?? 'no match'}`;
  lines.push(how);
  if (e.alreadySeen > 0) lines.push(`${e.alreadySeen} already in this conversation, not attached again`);
  for (const s of e.skipped) lines.push(`skipped ${s.relPath}: ${s.reason}`);
  return lines;
}

