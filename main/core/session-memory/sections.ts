/**
 * The notes file's structure (docs/memory.md#session-notes): `# ` headers, each followed by its body (the italic
 * description line and the content). Anything before the first header is the preamble.
 */
export interface NotesSection {
  /** The header line as written, e.g. `# Current State`. */
  headerLine: string;
  /** The header text without `# `, trimmed. */
  title: string;
  /** The text after the header line's line break, up to the next header line (may be ''). */
  body: string;
  /** The section's exact text: header line, its line break when present, body. */
  raw: string;
}

export interface ParsedNotes {
  /** The raw text before the first header; '' when the text starts with one. */
  preamble: string;
  sections: NotesSection[];
}

/** Splits on lines starting with `# `; `joinSections(parseSections(t)) === t` for any text. */
export function parseSections(text: string): ParsedNotes {
  const starts: number[] = [];
  const headerAt = /^# /gm;
  for (let m = headerAt.exec(text); m; m = headerAt.exec(text)) starts.push(m.index);
  if (starts.length === 0) return { preamble: text, sections: [] };
  const sections = starts.map((start, i) => sectionOf(text.slice(start, starts[i + 1] ?? text.length)));
  return { preamble: text.slice(0, starts[0]), sections };
}

export function sectionOf(raw: string): NotesSection {
  const nl = raw.indexOf('\n');
  const headerLine = nl === -1 ? raw : raw.slice(0, nl);
  return { headerLine, title: headerLine.slice(2).trim(), body: nl === -1 ? '' : raw.slice(nl + 1), raw };
}

export function joinSections(parsed: ParsedNotes): string {
  return parsed.preamble + parsed.sections.map((s) => s.raw).join('');
}

/** The whole lines at the start of `body` that fit in `maxChars`, each with its line break ('' when none fits). */
export function linesWithin(body: string, maxChars: number): string {
  let kept = '';
  for (const line of body.split('\n')) {
    if (kept.length + line.length + 1 > maxChars) break;
    kept += `${line}\n`;
  }
  return kept;
}
