/**
 * The text handling of instruction files (docs/memory.md#instructions): frontmatter and block-level HTML comments are stripped, and
 * `@path` includes are found in markdown text only — never inside code blocks or code spans.
 */

/** A fenced code block opens with three or more backticks or tildes (CommonMark). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Segment {
  text: string;
  code: boolean;
}

/** Splits markdown into fenced-code and text segments, line by line (an unclosed fence runs to the end). */
function segments(markdown: string): Segment[] {
  const out: Segment[] = [];
  let fence: string | null = null;
  let current: string[] = [];
  const flush = (code: boolean) => {
    if (current.length > 0) out.push({ text: current.join('\n'), code });
    current = [];
  };
  for (const line of markdown.split('\n')) {
    const match = FENCE.exec(line);
    if (fence === null && match) {
      flush(false);
      fence = match[1]!;
      current.push(line);
    } else if (fence !== null) {
      current.push(line);
      if (match && match[1]![0] === fence[0] && match[1]!.length >= fence.length && line.trim() === match[1]) {
        flush(true);
        fence = null;
      }
    } else {
      current.push(line);
    }
  }
  flush(fence !== null);
  return out;
}

/** Removes a leading YAML frontmatter block (`---` … `---`); an unclosed one is left as text. */
export function stripFrontmatter(text: string): string {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  const match = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(body);
  return match ? body.slice(match[0].length) : body;
}

/** One complete HTML comment that never runs past its own `-->`. */
const COMMENT = /<!--(?:(?!-->)[\s\S])*-->/g;
/** A CommonMark HTML block of the comment kind opens a line (at most three spaces in). */
const BLOCK_OPEN = /^ {0,3}<!--/;

/**
 * Removes block-level `<!-- … -->` comments, as Claude Code does: a comment that opens a line, through
 * the line holding its `-->` (the CommonMark HTML block), with any text left on those lines kept.
 * Comments inside a paragraph or a code span are text the author wrote and stay; so does an unclosed one.
 */
function stripCommentBlocks(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!BLOCK_OPEN.test(lines[i]!)) {
      out.push(lines[i]!);
      continue;
    }
    let end = i;
    while (end < lines.length && !lines[end]!.includes('-->')) end++;
    if (end === lines.length) {
      out.push(...lines.slice(i));
      break;
    }
    const residue = lines.slice(i, end + 1).join('\n').replace(COMMENT, '');
    if (residue.trim() !== '') out.push(residue);
    i = end;
  }
  return out.join('\n');
}

/** Removes block-level HTML comments outside fenced code blocks (see `stripCommentBlocks`). */
export function stripHtmlComments(text: string): string {
  return segments(text)
    .map((s) => (s.code ? s.text : stripCommentBlocks(s.text)))
    .join('\n');
}

/** Frontmatter, then HTML comments: what the model sees of an instruction file. */
export function cleanInstructionText(raw: string): string {
  return stripHtmlComments(stripFrontmatter(raw.replace(/\r\n/g, '\n'))).trim();
}

/** Same matcher as the reference: `@` at a line start or after whitespace, then the path (`\ ` escapes a space). */
const INCLUDE = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;

/** The accepted include forms: `./rel`, `../rel`, `~/home`, `/abs` (not bare `/`), or a bare relative name. */
function acceptedForm(p: string): boolean {
  if (p.startsWith('~/')) return p.length > 2;
  if (p.startsWith('/')) return p.length > 1;
  return /^[A-Za-z0-9._-]/.test(p);
}

/** The `@path` includes of cleaned markdown, in order of appearance, outside code blocks and spans. */
export function findIncludes(markdown: string): string[] {
  const found: string[] = [];
  for (const segment of segments(markdown)) {
    if (segment.code) continue;
    // Code spans and the inline comments left in the text are not followed.
    const text = segment.text.replace(/(`+)[\s\S]*?[^`]\1(?!`)/g, (span) => ' '.repeat(span.length)).replace(COMMENT, (c) => ' '.repeat(c.length));
    for (const match of text.matchAll(INCLUDE)) {
      let p = match[1]!;
      const hash = p.indexOf('#');
      if (hash >= 0) p = p.slice(0, hash);
      p = p.replace(/\\ /g, ' ');
      if (p !== '' && acceptedForm(p) && !found.includes(p)) found.push(p);
    }
  }
  return found;
}
