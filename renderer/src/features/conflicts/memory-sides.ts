import type { ConflictView } from '../../../../common/domain/team';
import { parseMemoryFile, readMemoryHead, splitFrontmatter, withHeadFields, type MemoryHeadField } from '../../../../common/memory-file/index';
import { merge3, resolveChunks } from '../../../../common/text/merge3';

/**
 * A conflict read as a memory: its name, description and type as fields, its body as text. The YAML
 * between the fences is never shown: a person edits the fields and the body, and the result is the
 * starting file with those set (every other key kept as it was).
 */
export const HEAD_FIELDS: readonly MemoryHeadField[] = ['name', 'description', 'type'];
export type Head = Record<MemoryHeadField, string>;

export interface MemorySides {
  /** The starting result (yours, with their changes that do not touch yours), its fields and body. */
  start: { text: string; head: Head; prefix: string; body: string };
  theirs: { head: Head; body: string };
  base: { head: Head; body: string } | null;
}

/**
 * Where the result starts: yours with every change of theirs that does not touch yours already in
 * (a three-way merge against the base), so what is left to decide is only where you both changed the
 * same lines. Without a base (or with a side deleted) it starts as yours.
 */
export function startingResult(view: ConflictView): string {
  if (view.base === null || view.mine === null || view.theirs === null) return view.mine ?? '';
  const merged = merge3(view.base, view.mine, view.theirs);
  return merged.clean ? merged.text : resolveChunks(merged.chunks, 'mine');
}

function asMemory(text: string): { head: Head; body: string } | null {
  const head = readMemoryHead(text);
  const block = splitFrontmatter(text);
  return head && block ? { head, body: block.body } : null;
}

/**
 * The two sides as memories, or null when either is not one (no frontmatter, YAML that gives no fields,
 * a deleted side, MEMORY.md): those are resolved as plain text.
 */
export function memorySides(view: ConflictView): MemorySides | null {
  if (view.mine === null || view.theirs === null) return null;
  const text = startingResult(view);
  const start = asMemory(text);
  const theirs = asMemory(view.theirs);
  if (!start || !theirs) return null;
  return {
    start: { text, ...start, prefix: text.slice(0, text.length - start.body.length) },
    theirs,
    base: view.base === null ? null : asMemory(view.base),
  };
}

/** The result file: the starting frontmatter with the fields the user changed, and the body as edited. */
export function composeResult(sides: MemorySides, head: Head, body: string): string {
  const text = sides.start.prefix + body;
  const changed = Object.fromEntries(HEAD_FIELDS.filter((f) => head[f] !== sides.start.head[f]).map((f) => [f, head[f]]));
  return Object.keys(changed).length === 0 ? text : (withHeadFields(text, changed) ?? text);
}

/** What the conflict is called: the memory's name (either side's), else its file name. */
export function conflictTitle(view: ConflictView): string {
  for (const text of [view.mine, view.theirs]) {
    const name = text === null ? null : parseMemoryFile(text).name?.replace(/\s+/g, ' ').trim();
    if (name) return name;
  }
  return view.key;
}
