import { parseSections, sectionOf, type NotesSection } from './sections.js';

/**
 * Puts back template sections whose header line the user removed by hand (docs/memory.md#session-notes: "the next update
 * restores the structure"), each at its template position, after the nearest preceding template
 * section still present, and the description line under a present header that lost it. Present
 * sections, their content and any extra sections stay as they are. Returns the text unchanged when
 * nothing is missing.
 */
export function restoreStructure(notes: string, template: string): string {
  const wanted = parseSections(template).sections;
  const parsed = parseSections(notes);
  const result: NotesSection[] = [...parsed.sections];
  const present = new Set(result.map((s) => s.headerLine.trimEnd()));
  let changed = false;
  let preamble = parsed.preamble;
  for (let i = 0; i < wanted.length; i++) {
    const section = wanted[i]!;
    const key = section.headerLine.trimEnd();
    if (present.has(key)) continue;
    changed = true;
    let at = 0;
    for (let j = i - 1; j >= 0 && at === 0; j--) {
      const prev = result.findIndex((s) => s.headerLine.trimEnd() === wanted[j]!.headerLine.trimEnd());
      if (prev !== -1) at = prev + 1;
    }
    const raw = section.raw.endsWith('\n') ? section.raw : `${section.raw}\n`;
    if (at > 0) {
      const before = result[at - 1]!;
      if (!before.raw.endsWith('\n')) result[at - 1] = sectionOf(`${before.raw}\n`);
    } else if (preamble.length > 0 && !preamble.endsWith('\n')) {
      preamble = `${preamble}\n`;
    }
    result.splice(at, 0, sectionOf(raw));
    present.add(key);
  }
  // docs/memory.md#session-notes: description lines are kept too. A present section that lost its template's description
  // line (removed by hand, or dropped by an update) gets it back right under its header.
  const descriptions = new Map(wanted.map((w) => [w.headerLine.trimEnd(), descriptionLine(w)] as const));
  for (let i = 0; i < result.length; i++) {
    const section = result[i]!;
    const description = descriptions.get(section.headerLine.trimEnd());
    if (!description || section.body.split('\n').some((line) => line.trim() === description)) continue;
    changed = true;
    result[i] = sectionOf(`${section.headerLine}\n${description}\n${section.body}`);
  }
  if (!changed) return notes;
  return preamble + result.map((s) => s.raw).join('');
}

/** A template section's description: its first non-empty body line when it is italic (`_…_` or `*…*`). */
function descriptionLine(section: NotesSection): string | null {
  const first = section.body.split('\n').find((line) => line.trim() !== '')?.trim();
  return first && /^([_*]).+\1$/.test(first) ? first : null;
}
