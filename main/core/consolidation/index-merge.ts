import { merge3 } from '../../../common/text/merge3.js';
import { parseIndex } from '../vault/index.js';

const targets = (text: string) => new Set(parseIndex(text).map((l) => l.target));
const targetOf = (line: string) => parseIndex(line)[0]?.target ?? null;

/**
 * The pass's MEMORY.md over the index as it is now. Line by line first (merge3); when both sides edited
 * neighbouring lines — the usual case, since deleting a memory through the vault also drops its line —
 * by pointer: the pass's lines, less those whose file's line was removed since, plus lines added since.
 * `keep`: files the pass wanted to delete but the user kept; their lines stay.
 */
export function mergeIndex(before: string, current: string, after: string, keep: ReadonlySet<string> = new Set()): string {
  const merged = mergeLines(before, current, after);
  const present = targets(merged);
  const restored = current.split('\n').filter((line) => {
    const target = targetOf(line);
    return target !== null && keep.has(target) && !present.has(target);
  });
  return restored.length ? `${merged.replace(/\n*$/, '\n')}${restored.join('\n')}\n` : merged;
}

function mergeLines(before: string, current: string, after: string): string {
  const lineMerge = merge3(before, current, after);
  if (lineMerge.clean) return lineMerge.text;
  const had = targets(before);
  const has = targets(current);
  const proposed = targets(after);
  const kept = after.split('\n').filter((line) => {
    const target = targetOf(line);
    return target === null || has.has(target) || !had.has(target);
  });
  const addedSince = current.split('\n').filter((line) => {
    const target = targetOf(line);
    return target !== null && !had.has(target) && !proposed.has(target);
  });
  const body = kept.join('\n').replace(/\n*$/, '\n');
  return addedSince.length ? `${body}${addedSince.join('\n')}\n` : body;
}
