/** File names and provenance lines shared by the importers. */
import { parseMemoryFile } from '../../../common/memory-file/index.js';

/** `type_a_few_words.md`, unique against `taken` (which it extends); within the vault's file-name rule. */
export function memoryFileName(type: string, name: string, taken: Set<string>): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .split('_')
    .slice(0, 6)
    .join('_')
    .slice(0, 60)
    .replace(/_+$/, '');
  const stem = `${type}_${words || 'memory'}`;
  let fileName = `${stem}.md`;
  for (let n = 2; taken.has(fileName.toLowerCase()); n++) fileName = `${stem}_${n}.md`;
  taken.add(fileName.toLowerCase());
  return fileName;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The line each imported memory carries, so it says where it came from (and when it was first saved). */
export function provenanceLine(sourceLabel: string, now: number, savedOn: string | null): string {
  return `Imported from ${sourceLabel} on ${day(now)}${savedOn ? ` (saved there on ${savedOn})` : ''}.`;
}

const PROVENANCE_DATE = /^(Imported from .*) on \d{4}-\d{2}-\d{2}((?: \(saved there on \d{4}-\d{2}-\d{2}\))?\.)$/m;

/**
 * What makes a memory file the same memory as another: its kind, name, description and text, the day an
 * import ran aside (a file without frontmatter: its exact text). An import run again — after it was
 * stopped midway — finds what it wrote by this, rather than writing `_2` copies.
 */
export function sameMemoryKey(text: string): string {
  const parsed = parseMemoryFile(text);
  if (!parsed.hasFrontmatter || parsed.name === null) return `text:${text}`;
  return JSON.stringify([parsed.rawType, parsed.name, parsed.description, parsed.body.trim().replace(PROVENANCE_DATE, '$1$2')]);
}
