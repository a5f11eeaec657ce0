/**
 * Session notes as sections (docs/memory.md#session-notes): each `# ` heading is followed by one italic instruction line
 * from the template, then the real notes. The instruction is guidance for the updater, so on screen
 * it is only a placeholder for a section with nothing in it yet — never text above real content.
 */
export interface NotesSection {
  heading: string;
  /** The template's italic line, without its underscores; null when the section has none. */
  instruction: string | null;
  /** What was actually written, trimmed; '' for an empty section. */
  body: string;
}

const HEADING = /^# (.+?)\s*$/;
/** `_instruction_` possibly followed by notes run on the same line (the updater sometimes does that). */
const INSTRUCTION = /^_(.+?)_(?:\s+(.*))?$|^_(.+?)_(\S.*)$/;

export function parseNotes(text: string): { preamble: string; sections: NotesSection[] } {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const preamble: string[] = [];
  const sections: { heading: string; instruction: string | null; body: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = HEADING.exec(line);
    if (heading) {
      const section = { heading: heading[1]!, instruction: null as string | null, body: [] as string[] };
      const next = lines[i + 1];
      const instruction = next === undefined ? null : INSTRUCTION.exec(next);
      if (instruction) {
        section.instruction = instruction[1] ?? instruction[3]!;
        const runOn = (instruction[2] ?? instruction[4] ?? '').trim();
        if (runOn) section.body.push(runOn);
        i++;
      }
      sections.push(section);
    } else if (sections.length > 0) sections.at(-1)!.body.push(line);
    else preamble.push(line);
  }
  return {
    preamble: preamble.join('\n').trim(),
    sections: sections.map((s) => ({ heading: s.heading, instruction: s.instruction, body: s.body.join('\n').trim() })),
  };
}

/** The notes as a reader sees them: sections with content, and the names of those still empty. */
export function readableNotes(text: string): { markdown: string; empty: string[]; title: string | null } {
  const { preamble, sections } = parseNotes(text);
  const written = sections.filter((s) => s.body && s.heading !== 'Session Title');
  const title = sections.find((s) => s.heading === 'Session Title')?.body.split('\n')[0]?.trim() || null;
  const parts = [preamble, ...written.map((s) => `### ${s.heading}\n\n${s.body}`)].filter(Boolean);
  return { markdown: parts.join('\n\n'), empty: sections.filter((s) => !s.body).map((s) => s.heading), title };
}

/** Line numbers (1-based) of the instruction lines, for the editor to show them as placeholders. */
export function instructionLines(text: string): Set<number> {
  const lines = text.split('\n');
  const found = new Set<number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    if (HEADING.test(lines[i]!) && INSTRUCTION.test(lines[i + 1]!)) found.add(i + 2);
  }
  return found;
}
