import { memoryTypes, type MemoryType } from '../../../../common/memory-file/memory-types';

/**
 * The four memory types (docs/memory.md#memory-files) in a person's words: the label a chooser shows and
 * a few words on what belongs there (short: they sit under the narrow Type field). The file keeps the
 * type's own word (`user`, `feedback`, …).
 */
const words: Record<MemoryType, { label: string; hint: string }> = {
  user: { label: 'About you', hint: 'Who you are, what you like.' },
  feedback: { label: 'How to work', hint: 'What to do, what to avoid.' },
  project: { label: 'Project', hint: 'Goals, decisions, dates.' },
  reference: { label: 'Reference', hint: 'Links, dashboards, tickets.' },
};

export const memoryTypeChoices = memoryTypes.map((type) => ({ type, ...words[type] }));

export const isMemoryType = (type: string): type is MemoryType => (memoryTypes as readonly string[]).includes(type);

/** The hint for a type, or null for one that is not a memory type. */
export const memoryTypeHint = (type: string): string | null => (isMemoryType(type) ? words[type].hint : null);
