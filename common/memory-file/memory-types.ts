/** docs/memory.md#auto-memory: the four memory types, spelled once for the whole app. */
export const memoryTypes = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof memoryTypes)[number];

/**
 * A `type` value as Claude Code reads it: an exact match of one of the four (no case folding, as its
 * `parseMemoryType`), `untyped` for any other value (kept and shown, docs/memory.md#auto-memory), null when there is none.
 */
export function memoryTypeOf(type: string | null | undefined): MemoryType | 'untyped' | null {
  if (type === undefined || type === null || type === '') return null;
  return (memoryTypes as readonly string[]).includes(type) ? (type as MemoryType) : 'untyped';
}

/**
 * The frontmatter shape a memory is written in. `2.1.88`: `name`, `description`, `type` (what both
 * Claude Code 2.1.88 and the newest read). `metadata`: the newest Claude Code's `name: kebab-slug`,
 * `description`, `metadata: {type: …}`; 2.1.88 reads such a memory as untyped.
 */
export const memoryShapes = ['2.1.88', 'metadata'] as const;
export type MemoryShape = (typeof memoryShapes)[number];
